package io.ddf.engine;

import io.ddf.persistence.FilterFileDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Filters#mutableWords}: the words are the file's bytes from the state region on, and copying them copies the filter. */
class MutableWordsTest
{
    @TempDir
    Path dir;

    @Test
    void wordsAreTheFileBytesFromTheStateRegionToTheEndOfTheTable() throws IOException
    {
        final Path path = dir.resolve("f.ddf");
        try (DuplicateFilter filter = Filters.builder(FilterKind.QHT).memoryBits(1 << 14).seed(7).file(path).create())
        {
            for (long e = 0; e < 500; e++)
            {
                filter.stream(e);
            }
            filter.flush();
            final FilterWords words = Filters.mutableWords(filter);
            final ByteBuffer file = ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(FilterFileDescriptor.HEADER_LENGTH + filter.parameters().tableBytes(),
                FilterFileDescriptor.STATE_OFFSET + words.words() * Long.BYTES);
            long nonZero = 0;
            for (long i = 0; i < words.words(); i++)
            {
                assertEquals(file.getLong((int)(FilterFileDescriptor.STATE_OFFSET + i * Long.BYTES)), words.getPlain(i));
                nonZero += words.getPlain(i) != 0 ? 1 : 0;
            }
            assertTrue(nonZero > 100, "500 elements set words");
        }
    }

    @Test
    void copyingTheWordsCopiesTheVerdicts()
    {
        try (DuplicateFilter a = Filters.builder(FilterKind.CUCKOO).memoryBits(1 << 12).seed(3).create();
             DuplicateFilter b = Filters.builder(FilterKind.CUCKOO).memoryBits(1 << 12).seed(3).create())
        {
            for (long e = 0; e < 1000; e++)
            {
                a.stream(e);
            }
            final FilterWords from = Filters.mutableWords(a);
            final FilterWords to = Filters.mutableWords(b);
            for (long i = 0; i < from.words(); i++)
            {
                to.putPlain(i, from.getPlain(i));
            }
            assertEquals(-1, from.mismatch(to, 0));
            to.putPlain(to.words() - 1, ~to.getPlain(to.words() - 1));
            assertEquals(to.words() - 1, from.mismatch(to, 0));
            assertEquals(to.words() - 1, from.mismatch(to, to.words() - 1));
            to.putPlain(to.words() - 1, from.getPlain(to.words() - 1));
            assertEquals(a.elements(), b.elements());
            for (long e = 500; e < 2000; e++)
            {
                assertEquals(a.stream(e), b.stream(e), "element " + e);
            }
        }
    }

    @Test
    void refusesAClosedFilter()
    {
        final DuplicateFilter filter = Filters.builder(FilterKind.BLOOM).memoryBits(1 << 12).create();
        filter.close();
        assertThrows(IllegalStateException.class, () -> Filters.mutableWords(filter));
    }
}
