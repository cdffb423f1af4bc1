package io.ddf.engine.scaling;

import java.nio.file.Path;

/** A filter in a growing file: a scaling Bloom chain or a RedisBloom cuckoo filter. */
public sealed interface ScalingFilter extends AutoCloseable permits BloomChain, RedisCuckoo
{
    /** @return the file's path. */
    Path path();

    /** @return the file's bytes on disk. */
    long fileBytes();

    /** Forces the file to the device. */
    void flush();

    /** Unmaps and releases the file. */
    @Override
    void close();
}
