package io.ddf.engine.scaling;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code %g} as C prints the error rates in RedisBloom's {@code BF.DEBUG} lines. */
class CFormatTest
{
    @Test
    void printsAsCsPercentG()
    {
        assertEquals("0.005", CFormat.g(0.005));
        assertEquals("0.0025", CFormat.g(0.0025));
        assertEquals("0.00015625", CFormat.g(0.00015625));
        assertEquals("7.8125e-05", CFormat.g(0.000078125));
        assertEquals("1e-06", CFormat.g(0.000001));
        assertEquals("0.333333", CFormat.g(1.0 / 3));
        assertEquals("0.1", CFormat.g(0.1));
        assertEquals("1.5e-07", CFormat.g(0.00000015));
        assertEquals("123457", CFormat.g(123456.7));
        assertEquals("1.23457e+06", CFormat.g(1234567));
        assertEquals("0", CFormat.g(0));
    }
}
