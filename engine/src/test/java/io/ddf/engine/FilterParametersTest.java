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

    /** Issue 30: the embedding API's refusals name its builder's methods, and say how a window is made. */
    @Test
    void refusalsNameTheBuilderMethods()
    {
        final UnknownParameterException noSuch = assertThrows(UnknownParameterException.class,
            () -> Filters.builder(FilterKind.QHT).param("no-such", 1).parameters());
        assertEquals("no-such", noSuch.parameter());
        assertEquals("param(\"no-such\") is not a parameter of qht: it takes .rows(n), .buckets(n), " +
            ".fingerprintBits(n), .memoryBits(n)", noSuch.getMessage());
        final UnknownParameterException cuckoo = assertThrows(UnknownParameterException.class,
            () -> Filters.builder(FilterKind.CUCKOO).param("no-such", 1).parameters());
        assertTrue(cuckoo.getMessage().contains("param(\"max-kicks\", v)"), cuckoo.getMessage());
        final UnknownParameterException window = assertThrows(UnknownParameterException.class,
            () -> Filters.builder(FilterKind.QHT).window(1000).create());
        assertTrue(window.getMessage().startsWith(".window(w) is not a parameter of qht") &&
            window.getMessage().contains(".window(w) needs .subfilters(L)"), window.getMessage());
        assertTrue(window.commandLineMessage().startsWith("--window is not a parameter of qht (it takes --rows"),
            window.commandLineMessage());
    }

    /** Issue 30: a window filter's kind is the kind it windows; its parameters say it is the queuing construction. */
    @Test
    void aWindowFiltersKindIsWhatItWindows()
    {
        try (DuplicateFilter filter = Filters.builder(FilterKind.QHT).memoryBits(1 << 16).window(1000).subfilters(4)
            .create())
        {
            assertEquals(FilterKind.QHT, filter.kind());
            assertEquals(FilterKind.QUEUE, filter.parameters().kind());
            assertEquals("1000", filter.parameters().toMap().get("window"));
        }
    }

    @Test
    void refusesContradictoryOrOutOfRangeParameters()
    {
        assertThrows(IllegalArgumentException.class,
            () -> Filters.builder(FilterKind.QHT).rows(10).memoryBits(1000).parameters());
        final IllegalArgumentException notTaken = assertThrows(IllegalArgumentException.class,
            () -> Filters.builder(FilterKind.QHT).remainderBits(4).parameters());
        assertTrue(notTaken.getMessage().startsWith(".remainderBits(n) is not a parameter of qht: it takes .rows(n), " +
            ".buckets(n), .fingerprintBits(n), .memoryBits(n)"), notTaken.getMessage());
        assertEquals("--remainder-bits is not a parameter of qht (it takes --rows, --buckets, --fingerprint-bits, " +
            "--memory-bits)", ((UnknownParameterException)notTaken).commandLineMessage());
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
