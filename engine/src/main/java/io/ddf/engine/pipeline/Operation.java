package io.ddf.engine.pipeline;

/** What the pipeline does with a published element. */
public enum Operation
{
    /** Judge and record: {@code DuplicateFilter.stream}. */
    STREAM,
    /** Judge only: {@code DuplicateFilter.contains}, ordered after every element published before it. */
    CONTAINS
}
