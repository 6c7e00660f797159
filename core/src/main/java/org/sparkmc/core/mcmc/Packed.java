package org.sparkmc.core.mcmc;

import java.util.Arrays;

/**
 * Numbers written one after another and read back in the same order, for {@link StateCodec}s: a writer that grows
 * as it goes, and a reader that checks it neither runs past the end nor leaves anything unread.
 */
public final class Packed {
    private double[] data;
    private int at;

    private Packed(double[] data) {
        this.data = data;
    }

    /** An empty writer. */
    public static Packed writer() {
        return new Packed(new double[16]);
    }

    /** A reader of {@code data}. */
    public static Packed reader(double[] data) {
        return new Packed(data);
    }

    public Packed put(double v) {
        ensure(1);
        data[at++] = v;
        return this;
    }

    public Packed put(double[] v) {
        ensure(v.length);
        System.arraycopy(v, 0, data, at, v.length);
        at += v.length;
        return this;
    }

    /** An array preceded by its length, for arrays whose length the reader cannot know. */
    public Packed putSized(double[] v) {
        return put(v.length).put(v);
    }

    private void ensure(int n) {
        if (at + n > data.length) {
            data = Arrays.copyOf(data, Math.max(2 * data.length, at + n));
        }
    }

    /** What was written. */
    public double[] toArray() {
        return Arrays.copyOf(data, at);
    }

    public double next() {
        check(1);
        return data[at++];
    }

    public double[] next(int n) {
        check(n);
        double[] v = Arrays.copyOfRange(data, at, at + n);
        at += n;
        return v;
    }

    /** An array written by {@link #putSized}. */
    public double[] nextSized() {
        double n = next();
        if (n < 0 || n != Math.rint(n)) {
            throw new IllegalArgumentException("bad array length " + n + " in a saved kernel state");
        }
        return next((int) n);
    }

    /** Checks that everything was read. */
    public void end() {
        if (at != data.length) {
            throw new IllegalArgumentException("a saved kernel state has " + (data.length - at)
                    + " numbers more than expected");
        }
    }

    private void check(int n) {
        if (at + n > data.length) {
            throw new IllegalArgumentException("a saved kernel state ends early: needed " + (at + n)
                    + " numbers, has " + data.length);
        }
    }
}
