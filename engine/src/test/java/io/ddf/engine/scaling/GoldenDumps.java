package io.ddf.engine.scaling;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The golden RedisBloom dumps under {@code src/test/resources/golden/scaling}: the chunks RedisBloom 2.4.23's
 * {@code SCANDUMP} gave for a few filters (each as iterator u64, length u32, bytes, little-endian), and its answers
 * to probe items ({@code 0}/{@code 1} per probe), recorded by {@code RedisBloomInteropTest.recordGoldenDumps} with
 * {@code -Dddf.golden.write=true} where the module is present, and read by {@link ScalingGoldenFileTest} everywhere.
 */
final class GoldenDumps
{
    static final Path DIR = Path.of("src/test/resources/golden/scaling");
    /** Items probed after the recorded commands. */
    static final int PROBES = 3_000;

    private GoldenDumps()
    {
    }

    /** The recorded filters: name, then the commands that built it (as RedisBloom ran them), by family. */
    static final String BLOOM = "rb-bloom-2.4.23";
    static final String BLOOM_NONSCALING = "rb-bloom-nonscaling-2.4.23";
    static final String CUCKOO = "rb-cuckoo-2.4.23";

    static byte[] item(final String prefix, final int n)
    {
        return (prefix + n).getBytes(StandardCharsets.UTF_8);
    }

    /** @return the probes: the first half of them members ({@code g<i>}), the rest not ({@code x<i>}). */
    static List<byte[]> probes()
    {
        final List<byte[]> probes = new ArrayList<>(PROBES);
        for (int i = 0; i < PROBES; i++)
        {
            probes.add(i % 2 == 0 ? item("g", i / 2) : item("x", i / 2));
        }
        return probes;
    }

    static void writeChunks(final Path file, final List<Object[]> chunks) throws java.io.IOException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (final Object[] chunk : chunks)
        {
            final byte[] data = (byte[])chunk[1];
            out.writeBytes(ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putLong((Long)chunk[0])
                .putInt(data.length).array());
            out.writeBytes(data);
        }
        Files.write(file, out.toByteArray());
    }

    static List<Object[]> readChunks(final Path file) throws java.io.IOException
    {
        final ByteBuffer in = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        final List<Object[]> chunks = new ArrayList<>();
        while (in.hasRemaining())
        {
            final long iter = in.getLong();
            final byte[] data = new byte[in.getInt()];
            in.get(data);
            chunks.add(new Object[] {iter, data});
        }
        return chunks;
    }
}
