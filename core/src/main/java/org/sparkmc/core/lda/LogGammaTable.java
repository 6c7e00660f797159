package org.sparkmc.core.lda;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.numbers.gamma.LogGamma;

/**
 * lnΓ(n + a) for integer counts n ≥ 0 and a fixed offset a (α, β, Kα), from a table for n &lt; {@value #SIZE} and
 * from {@link LogGamma} above it. Each entry is {@code LogGamma.value(n + a)} itself, so a sum over counts gives the
 * same double, bit for bit, as calling {@code LogGamma} for every count; the log-likelihood of a KOS sweep makes
 * ≈ 10^5 such calls. Tables are shared per offset (a pure function of it; at most {@value #MAX_TABLES} are kept).
 */
public final class LogGammaTable {
    /** Counts below this are looked up (32 KB per table). */
    static final int SIZE = 4096;
    private static final int MAX_TABLES = 64;
    private static final Map<Double, LogGammaTable> SHARED = new ConcurrentHashMap<>();

    private final double offset;
    private final double[] values;

    private LogGammaTable(double offset) {
        this.offset = offset;
        this.values = new double[SIZE];
        for (int n = 0; n < SIZE; n++) {
            values[n] = LogGamma.value(n + offset);
        }
    }

    /** The table of lnΓ(n + {@code offset}); {@code offset} must be positive. */
    public static LogGammaTable of(double offset) {
        if (!(offset > 0)) {
            throw new IllegalArgumentException("offset must be positive, is " + offset);
        }
        LogGammaTable t = SHARED.get(offset);
        if (t == null) {
            t = new LogGammaTable(offset);
            if (SHARED.size() < MAX_TABLES) {
                SHARED.putIfAbsent(offset, t);
            }
        }
        return t;
    }

    /** lnΓ(n + offset) for a count n ≥ 0. */
    public double value(int n) {
        return n < SIZE ? values[n] : LogGamma.value(n + offset);
    }
}
