package io.ddf.ingest.dispatch;

import io.ddf.engine.DuplicateFilter;
import io.ddf.engine.Operation;
import io.ddf.ingest.resp.DurabilityBarrier;
import io.ddf.ingest.resp.Replies;
import io.ddf.ingest.resp.ReplyWriter;
import io.ddf.ingest.resp.RespError;
import io.ddf.ingest.store.FilterStoreException;
import io.ddf.ingest.store.WrongTypeException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The conductor on its own, with a table of test commands and a session whose replies are written to an embedded
 * channel: how a command is found, authorised, checked, queued under MULTI or run, how its failure is worded, and
 * what its counters say. The commands' own behaviour is their families' tests (BloomCommandsTest, ...).
 */
class ConductorTest
{
    private final List<String> ran = new ArrayList<>();
    private final CommandTable table = new CommandTable();
    private String refusal;
    private final Conductor conductor = new Conductor(table, (session, command, args) -> refusal);
    private final TestSession session = new TestSession();

    ConductorTest()
    {
        table.add(Command.keyless("echo", 2, List.of("fast"), "connection", "", (s, a) ->
        {
            ran.add(Replies.key(a[1]));
            s.replies().ready(Replies.bulk(Replies.key(a[1])));
        }));
        table.add(Command.keyless("fail", 2, List.of(), "server", "", (s, a) ->
        {
            switch (Replies.key(a[1]))
            {
                case "resp" -> throw new RespError("ERR its own words");
                case "store" -> throw new FilterStoreException("the disk is full");
                default -> throw new WrongTypeException();
            }
        }));
        table.add(Command.keyless("exec", 1, List.of(), "transactions", "", (s, a) -> ran.add("exec")));
    }

    @Test
    void findsTheCommandByItsNameInAnyCaseAndCountsItsRun()
    {
        assertEquals("$1\r\na\r\n$1\r\nb\r\n", run("ECHO", "a") + run("eChO", "b"));
        assertEquals(List.of("a", "b"), ran);
        assertEquals(2, table.lookup("echo").calls());
    }

    @Test
    void anUnknownNameOrAWrongArityIsRedissErrorAndRunsNothing()
    {
        assertEquals("-ERR unknown command 'FROB', with args beginning with: 'x' 'y' \r\n", run("FROB", "x", "y"));
        assertEquals("-ERR wrong number of arguments for 'echo' command\r\n", run("echo", "a", "b"));
        assertEquals(List.of(), ran);
        assertEquals(1, table.lookup("echo").rejectedCalls());
        assertEquals(0, table.lookup("echo").calls());
    }

    @Test
    void aHandlersFailureIsWordedOnceHere()
    {
        assertEquals("-ERR its own words\r\n", run("fail", "resp"));
        assertEquals("-ERR the disk is full\r\n", run("fail", "store"));
        assertEquals("-" + RespError.WRONGTYPE + "\r\n", run("fail", "type"));
        assertEquals(3, table.lookup("fail").failedCalls());
    }

    @Test
    void theAuthorizersRefusalIsTheReplyAndAbortsAnOpenTransaction()
    {
        refusal = "NOPERM no";
        assertEquals("-NOPERM no\r\n", run("echo", "a"));
        session.session.multi();
        assertEquals("-NOPERM no\r\n", run("echo", "a"));
        final RespError abort = org.junit.jupiter.api.Assertions.assertThrows(RespError.class,
            session.session::exec, "EXEC then answers EXECABORT");
        assertEquals("EXECABORT Transaction discarded because of previous errors.", abort.getMessage());
        assertEquals(List.of(), ran);
    }

    /**
     * A client the authorizer says may run everything is not asked about again (no per-command ACL work) until the
     * rules change; one that may not is asked about every command.
     */
    @Test
    void aClientAllowedEverythingIsAskedAgainOnlyAfterTheRulesChange()
    {
        final int[] asked = new int[2];
        final boolean[] everything = {true};
        final Conductor cached = new Conductor(table, new Authorizer()
        {
            @Override
            public String refusal(final Session s, final Command command, final ByteBuf[] args)
            {
                asked[1]++;
                return everything[0] ? null : "NOPERM no";
            }

            @Override
            public boolean allowsEverything(final Session s)
            {
                asked[0]++;
                return everything[0];
            }
        });
        final TestSession client = new TestSession();
        for (int i = 0; i < 3; i++)
        {
            assertEquals("$1\r\na\r\n", run(cached, client, "echo", "a"));
        }
        assertEquals(1, asked[0], "asked once");
        assertEquals(0, asked[1]);
        everything[0] = false;
        cached.rulesChanged();
        for (int i = 0; i < 2; i++)
        {
            assertEquals("-NOPERM no\r\n", run(cached, client, "echo", "a"));
        }
        assertEquals(3, asked[0], "asked at each command while the answer is no");
        assertEquals(2, asked[1]);
    }

    @Test
    void underMultiCommandsAreQueuedButExecRuns()
    {
        session.session.multi();
        assertEquals("+QUEUED\r\n", run("echo", "a"));
        assertEquals("", run("exec"));
        assertEquals(List.of("exec"), ran, "queued, not run; EXEC itself is never queued");
        final List<ByteBuf[]> queued = session.session.exec();
        assertEquals(1, queued.size());
        assertEquals("a", Replies.key(queued.get(0)[1]));
        queued.forEach(args -> List.of(args).forEach(ByteBuf::release));
    }

    /** @return the bytes the command's reply wrote. */
    private String run(final String... words)
    {
        return run(conductor, session, words);
    }

    /** @return the bytes the command's reply wrote, run by that conductor for that client. */
    private static String run(final Conductor conductor, final TestSession session, final String... words)
    {
        final ByteBuf[] args = new ByteBuf[words.length];
        for (int i = 0; i < words.length; i++)
        {
            args[i] = Unpooled.copiedBuffer(words[i], StandardCharsets.UTF_8);
        }
        conductor.run(session.session, args);
        for (final ByteBuf arg : args)
        {
            arg.release();
        }
        return session.written();
    }

    /** A session on an embedded channel: the writer of a real connection, and nothing else of one. */
    private static final class TestSession
    {
        final EmbeddedChannel channel = new EmbeddedChannel(new ChannelInboundHandlerAdapter());
        final ReplyWriter writer = new ReplyWriter(DurabilityBarrier.NONE, () -> true);
        final Session session = new Session(new NoConnection(), writer, 64, null, true);

        TestSession()
        {
            writer.attach(channel.pipeline().firstContext());
            session.admit(1, new InetSocketAddress(1), new InetSocketAddress(2));
        }

        String written()
        {
            writer.flush();
            final StringBuilder text = new StringBuilder();
            ByteBuf b;
            while ((b = channel.readOutbound()) != null)
            {
                text.append(b.toString(StandardCharsets.ISO_8859_1));
                b.release();
            }
            return text.toString();
        }
    }

    /** The commands here never reach past their session. */
    private static final class NoConnection implements Session.Connection
    {
        @Override
        public void runAll(final List<ByteBuf[]> queued)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public void known()
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public void authFailed(final String error, final long atLeastMillis)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public void judge(final DuplicateFilter filter, final Operation operation, final ByteBuf[] args,
            final int first, final boolean array)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public void await(final CompletableFuture<?> work, final Runnable then)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public void retryAfter(final CompletableFuture<?> work, final ByteBuf[] args)
        {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean deferUntilJudged(final ByteBuf[] args)
        {
            throw new UnsupportedOperationException();
        }
    }
}
