package io.ddf.engine;

import io.ddf.engine.quotient.QuotientDefinition;
import io.ddf.engine.quotient.TableLayout;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The parameter check refuses what makes no sense, saying why. */
class FilterParametersTest
{
    @Test
    void memoryBitsGiveRowsAsInAlgorithm1()
    {
        final FilterParameters p = Filters.builder(FilterKind.QHT).memoryBits(65_536).buckets(2).fingerprintBits(3)
            .parameters();
        final QuotientDefinition definition = (QuotientDefinition)p.definition();
        assertEquals(65_536 / 6, p.get("rows"));
        assertEquals(7, definition.distinctCells(p.slots()));
        assertEquals(10, definition.layout(p.slots()).rowsPerWord());
    }

    @Test
    void sqfSignatureBitsAndDistinctSignatures()
    {
        final FilterParameters p = Filters.builder(FilterKind.SQF).memoryBits(1 << 20).buckets(3).remainderBits(7)
            .reducedBits(3).parameters();
        final QuotientDefinition definition = (QuotientDefinition)p.definition();
        assertEquals(3 + 3, definition.layout(p.slots()).slotBits());
        assertEquals((1L << 3) * (7 - 3 + 1) - 1, definition.distinctCells(p.slots()));
        assertEquals("6", p.toMap().get("signature-bits"));
    }

    @Test
    void refusesBucketsThatPinTheFalsePositiveRateAtOne()
    {
        final IllegalArgumentException qht = assertThrows(IllegalArgumentException.class,
            () -> Filters.builder(FilterKind.QHT).buckets(3).fingerprintBits(2).parameters());
        assertTrue(qht.getMessage().contains("FPR pinned at 1"), qht.getMessage());
        // SQF's recommended r = 2, r' = 1 leaves 3 non-empty signatures once 0 marks an empty cell.
        final IllegalArgumentException sqf = assertThrows(IllegalArgumentException.class,
            () -> Filters.builder(FilterKind.SQF).buckets(4).remainderBits(2).reducedBits(1).parameters());
        assertTrue(sqf.getMessage().contains("3 distinct"), sqf.getMessage());
    }

    @Test
    void refusesContradictoryOrOutOfRangeParameters()
    {
        assertThrows(IllegalArgumentException.class,
            () -> Filters.builder(FilterKind.QHT).rows(10).memoryBits(1000).parameters());
        final IllegalArgumentException notTaken = assertThrows(IllegalArgumentException.class,
            () -> Filters.builder(FilterKind.QHT).remainderBits(4).parameters());
        assertTrue(notTaken.getMessage().contains("--remainder-bits is not a parameter of qht"), notTaken.getMessage());
        assertThrows(IllegalArgumentException.class,
            () -> Filters.builder(FilterKind.SQF).fingerprintBits(4).parameters());
        assertThrows(IllegalArgumentException.class,
            () -> Filters.builder(FilterKind.SQF).remainderBits(4).reducedBits(4).parameters());
        assertThrows(IllegalArgumentException.class,
            () -> Filters.builder(FilterKind.QHT).buckets(0).parameters());
        assertThrows(IllegalArgumentException.class,
            () -> Filters.builder(FilterKind.QHT).fingerprintBits(33).parameters());
        assertThrows(IllegalArgumentException.class,
            () -> Filters.builder(FilterKind.QHT).memoryBits(10).buckets(4).fingerprintBits(8).parameters());
        assertThrows(IllegalArgumentException.class,
            () -> Filters.builder(FilterKind.QHT).memoryBits(1L << 50).parameters());
    }

    @Test
    void wideRowsReserveALockBit()
    {
        final FilterParameters p = Filters.builder(FilterKind.QHT).rows(100).buckets(16).fingerprintBits(6).parameters();
        final TableLayout layout = ((QuotientDefinition)p.definition()).layout(p.slots());
        assertTrue(layout.wide());
        assertEquals(10, layout.slotsPerWord());
        assertEquals(2, layout.wordsPerRow());
        assertEquals(1600, layout.tableBytes());
    }

    @Test
    void equalWhenTheyMakeTheSameFilter()
    {
        final FilterParameters p = Filters.builder(FilterKind.QHT).memoryBits(65_536).seed(7).parameters();
        assertEquals(p, Filters.builder(FilterKind.QHT).memoryBits(65_536).seed(7).parameters());
        assertEquals(p.hashCode(), Filters.builder(FilterKind.QHT).memoryBits(65_536).seed(7).parameters().hashCode());
        assertNotEquals(p, Filters.builder(FilterKind.QHT).memoryBits(65_536).seed(8).parameters());
        assertNotEquals(p, Filters.builder(FilterKind.QHT).memoryBits(131_072).seed(7).parameters());
        assertNotEquals(p, Filters.builder(FilterKind.QHTD).memoryBits(65_536).seed(7).parameters());
    }

    @Test
    void kindParametersAreTheOptionsInSlotOrder()
    {
        assertTrue(FilterKind.QHT.takes("fingerprint-bits"));
        assertFalse(FilterKind.DSQF.takes("pool"), "derived from the others, not given");
        assertTrue(SpiAccess.definition(FilterKind.DSQF).slotOf("pool") >= 0);
        assertFalse(FilterKind.BLOOM.takes("fingerprint-bits"));
        for (final FilterKind kind : FilterKind.values())
        {
            for (final KindParameter parameter : kind.parameters())
            {
                assertTrue(kind.takes(parameter.name()), kind + " " + parameter);
                assertTrue(FilterKind.options().get(parameter.name()).getValue().contains(kind), parameter.name());
            }
        }
    }
}
