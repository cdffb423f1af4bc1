/**
 * The extension points: what a filter kind is ({@link io.ddf.engine.spi.KindDefinition}: its parameters, their
 * resolution, its table size, its core) and what its algorithm does ({@link io.ddf.engine.spi.FilterCore}), with the
 * parameter vocabulary ({@link io.ddf.engine.spi.ParamDef}, {@link io.ddf.engine.spi.CommonParams},
 * {@link io.ddf.engine.spi.GivenParameters}) and the header code of every kind
 * ({@link io.ddf.engine.spi.KindCodes}); for a core with a window of time, what it reads the time from
 * ({@link io.ddf.engine.spi.FilterClock}), its calls with a time ({@link io.ddf.engine.spi.TimedCore}) and what it says
 * of its window ({@link io.ddf.engine.spi.WindowSnapshot}, {@link io.ddf.engine.spi.DurationText}).
 *
 * <p>May depend on {@code memory} only (a core works over {@code MappedWords}). A kind is known by its code, not by
 * the API's {@code FilterKind}, so that the families below the API never name the API.
 */
package io.ddf.engine.spi;
