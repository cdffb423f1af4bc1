package io.ddf.kafka.bench;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bench's table: each cell the median of the rounds, and the ratio the median of each round's ratio (the two
 * applications of a round ran under about the same load), not the ratio of the medians.
 */
class ResultTableTest
{
    private static RunResult run(final String app, final int round, final double recordsPerSecond,
        final double cpuMicros)
    {
        return new RunResult(app, "exactly_once_v2", round, 10, recordsPerSecond, cpuMicros, 100, 10, 80, 1 << 20,
            1 << 20, 1000, 10, 1 << 20, 0, 0);
    }

    @Test
    void theRatioIsTheMedianOfTheRoundsRatios()
    {
        // rounds' ratios 1.5, 4.0, 2.0 (median 2.0); the medians' ratio would be 200 / 80 = 2.5
        final String table = new ResultTable(List.of(
            run("ddf", 1, 150, 3), run("rocksdb", 1, 100, 9),
            run("ddf", 2, 200, 2), run("rocksdb", 2, 50, 10),
            run("ddf", 3, 400, 4), run("rocksdb", 3, 200, 8)), List.of("ddf", "rocksdb")).markdown();
        assertTrue(table.contains("| records/s, exactly_once_v2 | 200 (150, 200, 400) | 100 (100, 50, 200) | " +
            "2.00 (1.50, 4.00, 2.00) |"), table);
        // CPU per record: medians 3 and 9, the rounds' ratios 0.33, 0.20, 0.50
        assertTrue(table.contains("exactly_once_v2 | 3.00 (3.00, 2.00, 4.00) | 9.00 (9.00, 10.00, 8.00) | " +
            "0.33 (0.33, 0.20, 0.50) |"), table);
    }
}
