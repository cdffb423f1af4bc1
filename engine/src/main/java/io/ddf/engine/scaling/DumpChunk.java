package io.ddf.engine.scaling;

/**
 * A data chunk of a dump, as {@code SCANDUMP} answers it.
 *
 * @param next the iterator (position) to answer with it, which the next {@code SCANDUMP} asks for.
 * @param data the chunk's bytes.
 */
public record DumpChunk(long next, byte[] data)
{
}
