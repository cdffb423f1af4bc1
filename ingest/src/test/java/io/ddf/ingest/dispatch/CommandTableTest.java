package io.ddf.ingest.dispatch;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The table's byte lookup finds what a String lookup finds: lower-cased ISO-8859-1 names. */
class CommandTableTest
{
    private static final List<String> NAMES = List.of("bf.add", "bf.madd", "bf.exists", "ping", "command", "get",
        "set", "del", "info", "config", "client", "hello", "auth", "quit", "select", "dbsize", "keys", "exists");

    private static List<Command> commands()
    {
        final List<Command> all = new ArrayList<>();
        for (final String name : NAMES)
        {
            all.add(Command.keyless(name, -1, List.of(), "test", name, (s, a) -> { }));
        }
        return all;
    }

    private static CommandTable table(final List<Command> all)
    {
        final CommandTable table = new CommandTable();
        all.forEach(table::add);
        return table;
    }

    private static ByteBuf bytes(final String text)
    {
        return Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void findsEveryNameInAnyCaseAndOnlyThose()
    {
        final List<Command> all = commands();
        final CommandTable index = table(all);
        for (final Command c : all)
        {
            assertSame(c, index.find(bytes(c.name())));
            assertSame(c, index.find(bytes(c.name().toUpperCase(Locale.ROOT))));
            final String mixed = Character.toUpperCase(c.name().charAt(0)) + c.name().substring(1);
            assertSame(c, index.find(bytes(mixed)));
            assertNull(index.find(bytes(c.name() + "x")));
            assertNull(index.find(bytes(c.name().substring(1))));
        }
        assertNull(index.find(bytes("")));
        assertNull(index.find(bytes("bf.add\u00c0")));
        assertNull(index.find(bytes("BF_ADD")));
    }

    @Test
    void readsTheReadableBytesOnlyAndConsumesNothing()
    {
        final CommandTable index = table(commands());
        final ByteBuf buf = bytes("xxBF.ADDyy");
        final ByteBuf name = buf.slice(2, 6);
        assertSame("bf.add", index.find(name).name());
        assertEquals(0, name.readerIndex());
    }

    @Test
    void anEmptyIndexFindsNothing()
    {
        assertNull(new CommandTable().find(bytes("ping")));
    }
}
