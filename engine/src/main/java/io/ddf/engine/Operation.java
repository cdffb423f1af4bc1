package io.ddf.engine;

/**
 * What is done with an element handed on to be judged later or elsewhere: by the pipeline, or by a daemon's inline
 * path, which runs the same two operations without a pipeline.
 */
public enum Operation
{
    /** Judge and record: {@link DuplicateFilter#stream}. */
    STREAM,
    /** Judge only: {@link DuplicateFilter#contains}, ordered after every element published before it. */
    CONTAINS
}
