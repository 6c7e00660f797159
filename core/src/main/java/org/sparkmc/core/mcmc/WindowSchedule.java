package org.sparkmc.core.mcmc;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Stan's windowed warm-up schedule (Stan Reference Manual, "HMC algorithm parameters"; Stan's
 * {@code windowed_adaptation}): of W warm-up iterations, an initial fast interval of 75 (the chain travels to the
 * typical set, its positions discarded), slow windows of 25, 50, 100, … iterations whose positions estimate the
 * covariance, each doubling the last (the last one stretched to the end of the slow phase when the next would not
 * fit), and a final fast interval of 50 for the step size or scale alone. When 75 + 25 + 50 &gt; W the intervals
 * become 15%, the rest and 10% of W, as Stan's; with W &lt; 20 there is no window at all.
 *
 * <p>Iterations are counted from 0, as a chain's {@link ChainState#warmupIterations()} counts the warm-up steps
 * before the current one.
 */
public final class WindowSchedule implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Stan's defaults: initial buffer, first slow window, terminal buffer. */
    static final int INIT_BUFFER = 75;
    static final int BASE_WINDOW = 25;
    static final int TERM_BUFFER = 50;

    private final int warmup;
    private final int slowStart;
    private final int slowEnd;
    private final int[] windowEnds;

    private WindowSchedule(int warmup, int slowStart, int slowEnd, int[] windowEnds) {
        this.warmup = warmup;
        this.slowStart = slowStart;
        this.slowEnd = slowEnd;
        this.windowEnds = windowEnds;
    }

    /** The schedule for {@code warmup} iterations with Stan's default buffers and first window. */
    public static WindowSchedule of(int warmup) {
        if (warmup < 0) {
            throw new IllegalArgumentException("warm-up iterations must be ≥ 0, are " + warmup);
        }
        if (warmup < 20) {
            return new WindowSchedule(warmup, 0, 0, new int[0]);
        }
        int init = INIT_BUFFER;
        int term = TERM_BUFFER;
        int base = BASE_WINDOW;
        if (init + base + term > warmup) {
            init = (int) (0.15 * warmup);
            term = (int) (0.1 * warmup);
            base = warmup - (init + term);
        }
        long last = warmup - term - 1;
        List<Integer> ends = new ArrayList<>();
        long size = base;
        long next = init + size - 1;
        while (true) {
            ends.add((int) next);
            if (next == last) {
                break;
            }
            size *= 2;
            next = next + size;
            if (next != last && next + 2 * size >= warmup - term) {
                next = last;
            }
        }
        return new WindowSchedule(warmup, init, warmup - term, ends.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The warm-up length the schedule was made for. */
    public int warmup() {
        return warmup;
    }

    /** Whether warm-up iteration {@code i} falls in a slow window (its position counts toward the estimate). */
    public boolean inSlowWindow(long i) {
        return i >= slowStart && i < slowEnd;
    }

    /** Whether warm-up iteration {@code i} comes before the final fast interval (initial interval or slow windows). */
    public boolean beforeFinalInterval(long i) {
        return i < slowEnd;
    }

    /** Whether a slow window ends with warm-up iteration {@code i} (the estimate is then used and restarted). */
    public boolean endsWindow(long i) {
        for (int end : windowEnds) {
            if (end == i) {
                return true;
            }
        }
        return false;
    }

    /** The last iteration of each slow window, in order. */
    public int[] windowEnds() {
        return windowEnds.clone();
    }
}
