package io.ddf.engine.hash;

import io.ddf.persistence.testing.TestSeed;
import net.openhft.hashing.LongHashFunction;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The 8-byte XXH3 path against zero-allocation-hashing's general one, which file formats were written with. */
class Xxh3LongTest
{
    @Test
    void equalsTheLibraryOnRandomSeedsAndValues()
    {
        final long seed = TestSeed.seed();
        final SplittableRandom random = new SplittableRandom(seed);
        final long[] edges = {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0xFFFFFFFFL, 0xFFFFFFFF00000000L};
        for (int trial = 0; trial < 20_000; trial++)
        {
            final long hashSeed = trial < edges.length ? edges[trial] : random.nextLong();
            final long value = trial < edges.length ? edges[edges.length - 1 - trial] : random.nextLong();
            final byte[] bytes = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
            assertEquals(LongHashFunction.xx3(hashSeed).hashBytes(bytes), new Xxh3Long(hashSeed).hash(value),
                () -> "hash seed " + hashSeed + ", value " + value + "; " + TestSeed.replayHint());
        }
    }

    @Test
    void theElementHasherUsesItWithTheSameValuesAsBytes()
    {
        final long seed = TestSeed.seed();
        final SplittableRandom random = new SplittableRandom(seed);
        for (int trial = 0; trial < 2_000; trial++)
        {
            final long hashSeed = random.nextLong();
            final ElementHasher hasher = ElementHasher.of(ElementHasher.XXH3, hashSeed, null);
            final long value = random.nextLong();
            final byte[] bytes = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array();
            assertEquals(hasher.hash(bytes, 0, 8), hasher.hash(value), () -> TestSeed.replayHint());
        }
    }
}
