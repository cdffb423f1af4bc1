package io.ddf.ingest.store;

import io.ddf.engine.FilterKind;
import io.ddf.engine.Filters;
import io.ddf.engine.scaling.BloomChain;
import io.ddf.engine.scaling.RedisCuckoo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The daemon's keyspace on its own, without the protocol: filters of both kinds made off the caller's thread, found
 * by key and kind, refused with typed exceptions (never a RESP text), deleted with their files, kept across a
 * reopen, and counted against --max-filters.
 */
class FilterStoreTest
{
    @TempDir
    Path dir;

    private final ByteArrayOutputStream log = new ByteArrayOutputStream();

    private FilterStore open(final int maxFilters)
    {
        return FilterStore.open(dir, maxFilters, new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    @Test
    void bothKindsAreMadeFoundByKindAndDeletedWithTheirFiles()
    {
        try (FilterStore store = open(10))
        {
            assertEquals(FilterStore.Kind.NONE, store.kind("fixed"));
            store.create("fixed", () -> Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", 1000L)
                .param("target-fpr", 0.01), true).join();
            store.createScaling("grows", file -> BloomChain.create(file, 100, 0.01, false, 2, 0), true).join();
            assertEquals(FilterStore.Kind.FIXED, store.kind("fixed"));
            assertEquals(FilterStore.Kind.SCALING, store.kind("grows"));
            assertEquals(2, store.size());
            assertTrue(Files.exists(dir.resolve("fixed.ddf")) && Files.exists(dir.resolve("grows.ddfs")));
            try (FilterStore.Lease lease = store.acquire("fixed"))
            {
                assertNotNull(lease);
                assertFalse(lease.filter().counting());
            }
            assertNull(store.acquire("grows"), "a lease is of a fixed-size filter; one that grows is the registry's");
            assertTrue(log.toString(StandardCharsets.UTF_8).contains("ddf: created filter 'grows' (scaling bloom"));
            assertTrue(store.delete("fixed", f -> { }));
            assertTrue(store.delete("grows", f -> { }));
            assertFalse(store.delete("fixed", f -> { }));
            assertFalse(Files.exists(dir.resolve("fixed.ddf")) || Files.exists(dir.resolve("grows.ddfs")));
            assertEquals(FilterStore.Kind.NONE, store.kind("grows"));
        }
    }

    @Test
    void refusalsAreTypedNeverWordedForAProtocol()
    {
        try (FilterStore store = open(1))
        {
            store.createScaling("taken", file -> RedisCuckoo.create(file, 1000, 2, 20, 1), true).join();
            final CompletionException exists = assertThrows(CompletionException.class, () ->
                store.createScaling("taken", file -> RedisCuckoo.create(file, 1000, 2, 20, 1), true).join());
            assertInstanceOf(FilterStoreException.class, exists.getCause());
            assertEquals("item exists", exists.getCause().getMessage());
            store.createScaling("taken", file -> RedisCuckoo.create(file, 1000, 2, 20, 1), false).join();
            final CompletionException full = assertThrows(CompletionException.class, () ->
                store.create("second", () -> Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", 1000L)
                    .param("target-fpr", 0.01), false).join());
            assertInstanceOf(FilterStoreException.class, full.getCause());
            assertTrue(full.getCause().getMessage().contains("--max-filters"), full.getCause().getMessage());
            assertEquals("MBbloomCF", FilterTypes.type(store, "taken"));
            assertEquals("none", FilterTypes.type(store, "second"));
        }
    }

    @Test
    void aFilterOfTheOtherFamilyIsAWrongTypeException()
    {
        try (FilterStore store = open(10))
        {
            store.create("bloom", () -> Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", 1000L)
                .param("target-fpr", 0.01), true).join();
            assertThrows(WrongTypeException.class, () -> FilterTypes.cuckoo(store, "bloom"));
            try (FilterStore.Lease lease = FilterTypes.bloom(store, "bloom"))
            {
                assertNotNull(lease);
            }
            assertNull(FilterTypes.bloom(store, "missing"));
        }
    }

    @Test
    void filtersOfBothKindsAreThereAfterAReopen()
    {
        try (FilterStore store = open(10))
        {
            store.create("fixed", () -> Filters.builder(FilterKind.FIFO_BLOOM).param("capacity", 1000L)
                .param("target-fpr", 0.01), true).join();
            store.createScaling("grows", file -> BloomChain.create(file, 100, 0.01, false, 2, 0), true).join();
        }
        try (FilterStore store = open(10))
        {
            assertEquals(FilterStore.Kind.FIXED, store.kind("fixed"));
            assertEquals(FilterStore.Kind.SCALING, store.kind("grows"));
            assertEquals(java.util.Set.of("fixed", "grows"), store.keys());
        }
    }
}
