package io.ddf.ingest.store;

/**
 * A key holds a filter of the other family (a cuckoo filter under BF.*, a Bloom-family one under CF.*): the protocol
 * answers Redis's WRONGTYPE ({@link Session#message}), the store only says what it found.
 */
public final class WrongTypeException extends FilterStoreException
{
    private static final long serialVersionUID = 1L;

    public WrongTypeException()
    {
        super("the key holds a filter of another type");
    }
}
