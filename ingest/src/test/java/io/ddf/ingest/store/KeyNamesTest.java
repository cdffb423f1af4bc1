package io.ddf.ingest.store;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Keys to file names and back (glob patterns: io.ddf.ingest.glob.GlobTest). */
class KeyNamesTest
{
    @Test
    void namesAreSafeAndReversible()
    {
        assertEquals("bench.ddf", KeyNames.fileName("bench"));
        assertEquals("a%2Fb%20c%2E%2E.ddf", KeyNames.fileName("a/b c.."));
        assertEquals("%2E%2E.ddf", KeyNames.fileName(".."));
        final Random random = new Random(42);
        for (int i = 0; i < 1000; i++)
        {
            final byte[] bytes = new byte[1 + random.nextInt(40)];
            random.nextBytes(bytes);
            final String key = new String(bytes, StandardCharsets.ISO_8859_1);
            final String name = KeyNames.fileName(key);
            assertTrue(name.matches("[A-Za-z0-9_%-]*\\.ddf"), name);
            assertEquals(key, KeyNames.key(name));
        }
        assertNull(KeyNames.fileName("x".repeat(300)));
        assertNull(KeyNames.fileName(""));
    }

    @Test
    void foreignNamesAreNotKeys()
    {
        assertNull(KeyNames.key("notes.txt"));
        assertNull(KeyNames.key(".ddf"));
        assertNull(KeyNames.key("a.b.ddf"));
        assertNull(KeyNames.key("%2f.ddf"));
        assertNull(KeyNames.key("%2.ddf"));
        assertNull(KeyNames.key("%ZZ.ddf"));
        assertEquals("/", KeyNames.key("%2F.ddf"));
    }
}
