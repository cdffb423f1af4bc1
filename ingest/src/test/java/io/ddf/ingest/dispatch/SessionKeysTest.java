package io.ddf.ingest.dispatch;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

/** A session's key text: a repeated key is the same String; a different key of the same length never is. */
class SessionKeysTest
{
    private static ByteBuf arg(final String text)
    {
        // a slice at an offset, as the decoder hands arguments over
        final ByteBuf whole = Unpooled.copiedBuffer("*3\r\n" + text + "\r\n", StandardCharsets.ISO_8859_1);
        return whole.slice(4, text.length());
    }

    @Test
    void repeatsReuseTheStringAndOtherKeysAreTheirOwn()
    {
        final Session cache = new Session(null, null, 64, null, true);
        final String first = cache.key(arg("clicks"));
        assertEquals("clicks", first);
        assertSame(first, cache.key(arg("clicks")));
        final String other = cache.key(arg("clickz"));
        assertEquals("clickz", other);
        assertEquals("clicks", cache.key(arg("clicks")));
        assertNotSame(first, cache.key(arg("clicks2")));
        assertEquals("", cache.key(arg("")));
        final String binary = new String(new byte[]{(byte)0xff, 0, 'k'}, StandardCharsets.ISO_8859_1);
        assertEquals(binary, cache.key(arg(binary)));
        final String longKey = "k".repeat(1000);
        assertEquals(longKey, cache.key(arg(longKey)));
        assertEquals("k".repeat(999) + "j", cache.key(arg("k".repeat(999) + "j")));
    }
}
