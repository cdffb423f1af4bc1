package io.ddf.engine.scaling;

import io.ddf.engine.FilterInfo;
import io.ddf.persistence.FilterFileException;
import io.ddf.persistence.log.BootId;
import io.ddf.persistence.log.ChangeLog;
import io.ddf.persistence.log.LogOptions;
import io.ddf.persistence.log.Recovery;
import io.ddf.persistence.testing.TestSeed;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 31 item 9: a scaling file (the daemon's default filter, {@code .ddfs}) closed cleanly carries a table checksum
 * (FORMAT-scaling.md); random bytes written into its layers afterwards are refused at open, naming the file and the
 * reason, as {@code ddf verify} ({@link FilterInfo#verify}) reports them; checkpoints never seal, so a file cut after
 * one is replayed, not refused, and a clean close after checkpoints verifies.
 */
final class ScalingChecksumTest
{
    private static final LogOptions OPTIONS = LogOptions.DEFAULT.withSegmentBytes(1 << 16);

    @TempDir
    Path dir;

    @AfterEach
    void sameBootAgain()
    {
        System.clearProperty(BootId.PROPERTY);
    }

    private static ScalingFilter make(final String kind, final Path path)
    {
        return switch (kind)
        {
            case "ddf" -> BloomChain.create(path, 1000, 0.01, false, 2, 42);
            case "redisbloom" -> BloomChain.redisBloom(path, 1000, 0.01, false, 2);
            case "cuckoo" -> RedisCuckoo.create(path, 1024, 2, 20, 2);
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static ScalingFilter open(final String kind, final Path path)
    {
        return kind.equals("cuckoo") ? RedisCuckoo.open(path) : BloomChain.open(path);
    }

    private static void fill(final ScalingFilter filter, final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            final byte[] item = ("item-" + i).getBytes(StandardCharsets.US_ASCII);
            if (filter instanceof BloomChain chain)
            {
                chain.add(item);
            }
            else
            {
                ((RedisCuckoo)filter).insert(RedisCuckoo.hash(item), false);
            }
        }
    }

    /** Random bytes over a run of the file past its header page (in a layer: its header or its data). */
    private static void damage(final Path path, final SplittableRandom random) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final byte[] noise = new byte[64];
            random.nextBytes(noise);
            final long at = 4096 + 128 + random.nextLong(channel.size() - 4096 - 128 - noise.length);
            channel.write(ByteBuffer.wrap(noise), at);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ddf", "redisbloom", "cuckoo"})
    void randomBytesAfterACleanCloseAreRefusedByNameAndReason(final String kind) throws IOException
    {
        final SplittableRandom random = new SplittableRandom(TestSeed.seed() ^ kind.hashCode());
        final Path path = dir.resolve(kind + ".ddfs");
        try (ScalingFilter filter = make(kind, path))
        {
            fill(filter, 0, 3000); // grown
        }
        final Map<String, String> sound = FilterInfo.verify(path);
        assertEquals("ok", sound.get("table checksum"), sound.toString());
        open(kind, path).close(); // a sealed, sound file opens
        damage(path, random);
        final FilterFileException verified = assertThrows(FilterFileException.class, () -> FilterInfo.verify(path));
        final FilterFileException opened = assertThrows(FilterFileException.class, () -> open(kind, path));
        for (final FilterFileException e : new FilterFileException[] {verified, opened})
        {
            assertEquals(FilterFileException.Reason.CORRUPT, e.reason(), e.getMessage());
            assertTrue(e.getMessage().contains(path.toString()) && e.getMessage().contains("table checksum mismatch"),
                e.getMessage());
        }
    }

    @Test
    void checkpointsNeverSealAndACleanCloseAfterThemVerifies() throws IOException
    {
        final Path path = dir.resolve("f.ddfs");
        final byte[] cutImage;
        try (ChangeLog log = ChangeLog.open(dir.resolve("log"), OPTIONS);
            ScalingFilter filter = make("ddf", path))
        {
            filter.logTo(log);
            fill(filter, 0, 2000);
            filter.checkpoint();
            fill(filter, 2000, 4000);
            filter.checkpoint();
            fill(filter, 4000, 4500);
            log.force(log.appended());
            cutImage = Files.readAllBytes(path); // as a power cut after the checkpoints could leave it
            assertTrue(FilterInfo.verify(path).get("sealed").startsWith("no"), "open: not sealed");
        }
        assertEquals("ok", FilterInfo.verify(path).get("table checksum"));
        try (ChangeLog log = ChangeLog.open(dir.resolve("log"), OPTIONS);
            ScalingFilter filter = open("ddf", path))
        {
            assertEquals(Recovery.Outcome.SEALED, filter.logTo(log).outcome());
        }
        // the cut image: unsealed, so opened and replayed under another boot id rather than refused
        final Path cut = dir.resolve("cut").resolve("f.ddfs");
        Files.createDirectories(cut.getParent());
        Files.write(cut, cutImage);
        System.setProperty(BootId.PROPERTY, new UUID(7, 7).toString());
        try (ChangeLog log = ChangeLog.open(dir.resolve("log"), OPTIONS);
            ScalingFilter filter = open("ddf", cut))
        {
            assertEquals(Recovery.Outcome.REPLAYED, filter.logTo(log).outcome());
            assertTrue(((BloomChain)filter).contains("item-4499".getBytes(StandardCharsets.US_ASCII)));
        }
    }
}
