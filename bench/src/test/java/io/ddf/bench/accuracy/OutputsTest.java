package io.ddf.bench.accuracy;

import io.ddf.bench.accuracy.stream.StreamSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CSV, markdown and PNG outputs are written and well formed. */
class OutputsTest
{
    private static final byte[] PNG_SIGNATURE = {(byte)0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

    @Test
    void csvMarkdownAndPngsAreProduced(@TempDir final Path dir) throws IOException
    {
        final Experiment experiment = new Experiment(StreamSpec.uniform(1 << 12, 5000),
            List.of(FilterSpec.parse("qht:buckets=2,fingerprint-bits=4"),
                FilterSpec.parse("L=2@qht:subfilters=2,buckets=1,fingerprint-bits=4"),
                FilterSpec.parse("L=4@qht:subfilters=4,buckets=1,fingerprint-bits=4")),
            List.of(4096L, 16384L), List.of(100L, 1000L), 2, 10, 3);
        final List<ExperimentResult> results = List.of(new AccuracyRunner(
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), false).run(experiment));

        final Path csv = dir.resolve("a.csv");
        CsvOutput.write(results, csv);
        final List<String> lines = Files.readAllLines(csv);
        assertEquals(CsvOutput.HEADER, lines.get(0));
        // 3 filters x 2 memories x 2 windows x 10 checkpoints.
        assertEquals(1 + 3 * 2 * 2 * 10, lines.size());

        final Path md = dir.resolve("t.md");
        MarkdownOutput.write("Test", List.of("preface"), results, PaperFigures.NONE, md);
        final String text = Files.readString(md);
        assertTrue(text.contains("| Stream (duplicate %) | Memory (bits) | Window | qht:buckets=2,fingerprint-bits=4 |" +
            " L=2 | L=4 |"), text);
        assertTrue(text.contains("## Windowed error rate"), text);

        final List<Path> pngs = PlotOutput.write(results, dir);
        // 4 against length, 2 against memory, 2 against window, 2 against L (one per memory).
        assertEquals(10, pngs.size(), pngs.toString());
        for (final Path png : pngs)
        {
            final byte[] bytes = Files.readAllBytes(png);
            assertTrue(bytes.length > 1000, png + " is " + bytes.length + " bytes");
            final byte[] head = new byte[PNG_SIGNATURE.length];
            System.arraycopy(bytes, 0, head, 0, head.length);
            assertArrayEquals(PNG_SIGNATURE, head, png.toString());
        }
    }
}
