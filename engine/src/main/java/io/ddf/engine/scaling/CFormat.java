package io.ddf.engine.scaling;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * C's {@code printf("%g")}, for the {@code BF.DEBUG} lines RedisBloom writes with it: six significant digits,
 * trailing zeros dropped, scientific notation (two exponent digits at least) when the exponent is below -4 or at
 * least 6.
 */
final class CFormat
{
    private static final int PRECISION = 6;

    private CFormat()
    {
    }

    /**
     * @param value a finite double.
     * @return it as {@code %g} prints it.
     */
    static String g(final double value)
    {
        if (value == 0)
        {
            return (1 / value) < 0 ? "-0" : "0";
        }
        if (Double.isNaN(value) || Double.isInfinite(value))
        {
            return Double.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
        }
        final BigDecimal rounded = new BigDecimal(value).round(new MathContext(PRECISION, RoundingMode.HALF_EVEN));
        final int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent < -4 || exponent >= PRECISION)
        {
            final BigDecimal mantissa = rounded.movePointLeft(exponent).stripTrailingZeros();
            final String digits = mantissa.scale() <= 0 ? mantissa.setScale(0).toPlainString() : mantissa.toPlainString();
            final String sign = exponent < 0 ? "-" : "+";
            final int magnitude = Math.abs(exponent);
            return digits + "e" + sign + (magnitude < 10 ? "0" : "") + magnitude;
        }
        final BigDecimal plain = rounded.stripTrailingZeros();
        return plain.scale() <= 0 ? plain.setScale(0).toPlainString() : plain.toPlainString();
    }
}
