/**
 * The machinery behind the API: {@link io.ddf.engine.internal.FilterFactory} maps a file to the filter its header
 * describes and checks the header, {@link io.ddf.engine.internal.MappedFilter} hashes, lets the kind's core decide
 * and counts, {@link io.ddf.engine.internal.FilterCounters} keeps the counters in the file's state region (a stripe per thread,
 * written by its owner without a locked instruction), and
 * {@link io.ddf.engine.internal.FilterKinds} is the kind registry, by header code.
 *
 * <p>Used only by the API package; depends on the families (the registry builds their definitions), {@code spi},
 * {@code memory} and {@code hash}, and never on the API: it answers in booleans and codes, which the API adapts.
 */
package io.ddf.engine.internal;
