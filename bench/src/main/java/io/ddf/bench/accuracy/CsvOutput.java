package io.ddf.bench.accuracy;

import io.ddf.bench.accuracy.stream.StreamSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** Writes one CSV row per stream × filter × memory × window × checkpoint, rates as fractions (not percent). */
public final class CsvOutput
{
    /** The header row. */
    public static final String HEADER = "stream,alphabet,exponent,length,runs,duplicates,filter,spec,memory_bits," +
        "window,position,fpr,fnr,error,fpr_w,fnr_w,error_w,error_sd,parameters";

    private CsvOutput()
    {
    }

    /**
     * @param results the experiments' results.
     * @param file    where to write.
     * @throws IOException when the file cannot be written.
     */
    public static void write(final List<ExperimentResult> results, final Path file) throws IOException
    {
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8)))
        {
            out.println(HEADER);
            for (final ExperimentResult result : results)
            {
                final StreamSpec stream = result.experiment().stream();
                for (final ConfigResult config : result.configs())
                {
                    if (config.failure() != null)
                    {
                        continue;
                    }
                    for (int j = 0; j < config.positions().length; j++)
                    {
                        final double[] m = config.mean()[j];
                        out.printf(Locale.ROOT, "%s,%d,%s,%d,%d,%.6f,%s,%s,%d,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s%n",
                            quote(stream.name()), stream.alphabet(), stream.exponent(), stream.length(),
                            result.experiment().runs(), result.duplicates(), quote(config.spec().label()),
                            quote(config.spec().text()), config.memoryBits(), config.window(), config.positions()[j],
                            num(m[0]), num(m[1]), num(m[2]), num(m[3]), num(m[4]), num(m[5]),
                            num(config.errorSd()[j]), quote(config.parameters()));
                    }
                }
            }
        }
    }

    private static String num(final double v)
    {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.6f", v);
    }

    private static String quote(final String text)
    {
        return '"' + text.replace("\"", "\"\"") + '"';
    }
}
