package io.ddf.engine.internal;

/**
 * 128 bytes before a {@link Stripe}'s fields (its subclass adds as many after), so that no two threads' stripes share
 * a cache line, nor the pair of lines an adjacent-line prefetcher fetches together. Fields of a superclass come first
 * in HotSpot's layout, those of a subclass after: hence a class of its own.
 */
abstract class StripePadding
{
    long p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15, p16;
}
