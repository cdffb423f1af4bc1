/**
 * Kinds composed of other families' cores: {@code fifo-bloom}, Bloom subfilters in the queuing construction's
 * rotation (counting new items only), sized by its model; with a window of time, generations that also turn with time
 * ({@code FifoWindow}), their stale slots sealed over the calls ({@code FifoSeals}); and {@code aged-cuckoo}, a window
 * of time in one cuckoo table whose entries carry their generation's stamp ({@code AgedCuckooCore}), here beside
 * fifo-bloom's window because it shares its windows' conventions and records its own changes in the change log.
 *
 * <p>Between {@code internal} (which registers it) and the families (whose cores it composes): it may use the
 * families, {@code spi}, {@code memory}, {@code hash} and {@code model}; the families stay independent of each other.
 *
 * <p>What {@code fifo-bloom} stores in a filter file (header fields, table, state words) is specified in
 * {@code FORMAT-FIFO-BLOOM.md} here, as the quotient family's is in its {@code FORMAT-QUOTIENT.md}; {@code aged-cuckoo}'s
 * in {@code FORMAT-AGED-CUCKOO.md}.
 */
package io.ddf.engine.composite;
