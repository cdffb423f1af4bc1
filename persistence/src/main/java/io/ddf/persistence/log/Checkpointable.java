package io.ddf.persistence.log;

/**
 * A filter written through a change log, which a checkpoint scheduler (the daemon's, or the embedded filters' own)
 * checkpoints: its pages forced, then the position replay would start from recorded in its header. Writers never
 * wait for a checkpoint.
 */
public interface Checkpointable
{
    /**
     * Checkpoints now (FORMAT-LOG.md, "Checkpoints"): P := the log's appended position; the filter's pages forced;
     * P recorded in its header and forced. Safe from any thread while others write; checkpoints of one filter run one
     * at a time. A filter unchanged since its last checkpoint only moves P forward (its header page forced).
     *
     * @return what it did.
     * @throws io.ddf.persistence.FilterFileException when forcing fails (the header keeps the previous P).
     */
    Checkpoint checkpoint();

    /** @return the checkpoint position the header holds now: the log before it is not needed by this filter. */
    long checkpointPosition();

    /** @return the log it is written through. */
    ChangeLog log();
}
