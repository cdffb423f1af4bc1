/**
 * The extension points: what a filter kind is ({@link io.ddf.engine.spi.KindDefinition}: its parameters, their
 * resolution, its table size, its core) and what its algorithm does ({@link io.ddf.engine.spi.FilterCore}), with the
 * parameter vocabulary ({@link io.ddf.engine.spi.ParamDef}, {@link io.ddf.engine.spi.CommonParams},
 * {@link io.ddf.engine.spi.GivenParameters}) and the header code of every kind
 * ({@link io.ddf.engine.spi.KindCodes}).
 *
 * <p>May depend on {@code memory} only (a core works over {@code MappedWords}). A kind is known by its code, not by
 * the API's {@code FilterKind}, so that the families below the API never name the API.
 */
package io.ddf.engine.spi;
