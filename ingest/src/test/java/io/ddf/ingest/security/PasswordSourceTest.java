package io.ddf.ingest.security;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PasswordSourceTest
{
    @TempDir
    Path dir;

    @Test
    void fromAFileWithoutItsTrailingNewline() throws IOException
    {
        final Path file = Files.writeString(dir.resolve("pass"), "s3cret\n");
        final List<String> warnings = new ArrayList<>();
        assertEquals("s3cret", PasswordSource.resolve(null, file, Map.of(), warnings::add));
        assertTrue(warnings.isEmpty());
    }

    @Test
    void fromTheEnvironment()
    {
        assertEquals("envpass", PasswordSource.resolve(null, null, Map.of(PasswordSource.ENV, "envpass"), w -> { }));
        assertNull(PasswordSource.resolve(null, null, Map.of(), w -> { }));
    }

    @Test
    void theCommandLineFormWarnsThatItIsVisible()
    {
        final List<String> warnings = new ArrayList<>();
        assertEquals("p", PasswordSource.resolve("p", null, Map.of(), warnings::add));
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("process list"), warnings.get(0));
    }

    @Test
    void twoSourcesOrAnUnreadableFileAreRefused() throws IOException
    {
        assertThrows(IllegalArgumentException.class,
            () -> PasswordSource.resolve("p", null, Map.of(PasswordSource.ENV, "q"), w -> { }));
        assertThrows(IllegalArgumentException.class,
            () -> PasswordSource.resolve(null, dir.resolve("missing"), Map.of(), w -> { }));
        assertThrows(IllegalArgumentException.class,
            () -> PasswordSource.resolve(null, Files.writeString(dir.resolve("empty"), "\n"), Map.of(), w -> { }));
    }
}
