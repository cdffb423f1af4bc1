package io.ddf.engine.scaling;

import java.nio.file.Path;

/** A filter in a growing file ({@link ChainFile}): a scaling Bloom chain or a RedisBloom cuckoo filter. */
public abstract sealed class ScalingFilter implements AutoCloseable permits BloomChain, RedisCuckoo
{
    /** The filter's file. */
    final ChainFile file;

    ScalingFilter(final ChainFile file)
    {
        this.file = file;
    }

    /** @return the file's path. */
    public final Path path()
    {
        return file.path();
    }

    /** @return the file's bytes on disk (what the filter really takes). */
    public final long fileBytes()
    {
        return file.fileBytes();
    }

    /** @return the items it holds: a chain's items inserted, a cuckoo filter's items (what INFO reports). */
    public abstract long items();

    /** Forces the file to the device. */
    public final void flush()
    {
        file.flush();
    }

    /** Unmaps and releases the file. */
    @Override
    public void close()
    {
        file.close();
    }
}
