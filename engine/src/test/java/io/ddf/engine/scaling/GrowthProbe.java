package io.ddf.engine.scaling;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A child process for {@link ChainFileTest}'s kill -9 rounds: opens (or creates) a growing Bloom chain and adds
 * items {@code i<n>} from {@code n} given on, writing each {@code n} to the acknowledgement file (one write each,
 * which the page cache keeps past a kill) once its add has returned, until killed.
 */
public final class GrowthProbe
{
    private GrowthProbe()
    {
    }

    /**
     * @param args the chain's file, the first item's number, the acknowledgement file.
     * @throws java.io.IOException when the acknowledgement file cannot be written.
     */
    public static void main(final String[] args) throws java.io.IOException
    {
        final Path path = Path.of(args[0]);
        try (java.io.FileOutputStream acks = new java.io.FileOutputStream(args[2], true);
            BloomChain chain = java.nio.file.Files.exists(path) ? BloomChain.open(path) :
            BloomChain.redisBloom(path, 50, 0.01, false, 2))
        {
            for (long n = Long.parseLong(args[1]); ; n++)
            {
                chain.add(("i" + n).getBytes(StandardCharsets.UTF_8));
                acks.write((n + "\n").getBytes(StandardCharsets.US_ASCII));
            }
        }
    }
}
