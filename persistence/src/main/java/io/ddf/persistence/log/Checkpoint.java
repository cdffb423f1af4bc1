package io.ddf.persistence.log;

/**
 * What one checkpoint of a filter did.
 *
 * @param position    the checkpoint position recorded: replay would start there.
 * @param startMillis when it started, epoch milliseconds.
 * @param nanos       how long it took (forcing the pages, then the header).
 * @param forced      whether anything was forced (false: the filter had not changed since its last checkpoint).
 */
public record Checkpoint(long position, long startMillis, long nanos, boolean forced)
{
}
