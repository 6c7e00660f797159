package org.sparkmc.core.consensus;

import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;

/**
 * Synthetic rows from a {@link Glm} with known parameters θ: features x_{i,j} ~ N(0, 1) independently (x_{i,1} = 1
 * instead when the model has an intercept), and the response drawn from the model at η_i = x_iᵀβ
 * ({@link Glm#sampleResponse}).
 *
 * <p>Rows are a pure function of the root seed and the row index: rows [k·B, (k + 1)·B), B = {@value #ROWS_PER_STREAM},
 * come from the stream keyed ({@value #STREAM}, k) of {@link RandomStreams}, row after row. A request for any range
 * regenerates the start of its first stream block, so every way of cutting the row range into pieces gives the same
 * rows; a Spark job whose pieces are whole stream blocks wastes nothing.
 */
public final class SyntheticGlmData implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** Stream purpose, keyed by the stream block k = row / {@value #ROWS_PER_STREAM}. */
    public static final String STREAM = "glm-data";
    /** Rows per random stream: part of the output contract, as the seed is. */
    public static final int ROWS_PER_STREAM = 4096;

    private final Glm glm;
    private final double[] truth;
    private final boolean intercept;
    private final RandomStreams streams;

    /**
     * @param truth     the true θ, of length {@code glm.dimension()} (for a Gaussian model with σ unknown, log σ last)
     * @param intercept whether feature 1 is the constant 1
     */
    public SyntheticGlmData(Glm glm, double[] truth, boolean intercept, RandomStreams streams) {
        if (truth.length != glm.dimension()) {
            throw new InvalidInputException("synthetic " + glm.name() + " data: " + truth.length
                    + " true parameters, the model has " + glm.dimension());
        }
        for (double v : truth) {
            if (!Double.isFinite(v)) {
                throw new InvalidInputException("synthetic " + glm.name() + " data: a true parameter is " + v);
            }
        }
        this.glm = glm;
        this.truth = truth.clone();
        this.intercept = intercept;
        this.streams = streams;
    }

    /** The true θ (a copy). */
    public double[] truth() {
        return truth.clone();
    }

    /**
     * Rows [first, first + count).
     *
     * @param features  receives the rows' features, row-major, from index 0 (at least count·p values)
     * @param responses receives the responses, from index 0 (at least count values)
     */
    public void fill(long first, int count, double[] features, double[] responses) {
        if (first < 0 || count < 0) {
            throw new IllegalArgumentException("rows [" + first + ", " + first + " + " + count + ")");
        }
        int p = glm.features();
        double[] x = new double[p];
        long end = first + count;
        long row = first;
        while (row < end) {
            long block = row / ROWS_PER_STREAM;
            long blockStart = block * ROWS_PER_STREAM;
            long blockEnd = Math.min(blockStart + ROWS_PER_STREAM, end);
            Rng rng = streams.rng(STREAM, block);
            for (long r = blockStart; r < blockEnd; r++) {
                double y = nextRow(rng, x, r);
                if (r >= first) {
                    int i = (int) (r - first);
                    System.arraycopy(x, 0, features, i * p, p);
                    responses[i] = y;
                }
            }
            row = blockEnd;
        }
    }

    /** The rows [first, first + count) as new arrays. */
    public Rows rows(long first, int count) {
        double[] features = new double[count * glm.features()];
        double[] responses = new double[count];
        fill(first, count, features, responses);
        return new Rows(features, responses);
    }

    /**
     * A row's features (into x) and its response, from the stream.
     *
     * @throws InvalidInputException when the true parameters give row {@code row} a response the model cannot draw
     *     or a table cannot hold (a Poisson mean beyond the sampler's range, a Gaussian response beyond ±1.8e308):
     *     such rows failed as a task's crash, or were written as ±Infinity and NaN
     */
    private double nextRow(Rng rng, double[] x, long row) {
        for (int j = 0; j < x.length; j++) {
            x[j] = j == 0 && intercept ? 1 : rng.normal();
        }
        double eta = glm.linearPredictor(x, 0, truth);
        double y;
        try {
            y = glm.sampleResponse(eta, truth, rng);
        } catch (IllegalArgumentException e) { // Commons RNG's Poisson sampler: a mean beyond its range
            y = Double.NaN;
        }
        if (!glm.inSupport(y)) {
            throw new InvalidInputException("synthetic " + glm.name() + " data: row " + (row + 1) + " has the linear "
                    + "predictor " + eta + ", whose response cannot be drawn as a finite " + glm.name() + " value; "
                    + "give smaller true coefficients (or, gaussian, a smaller sigma)");
        }
        return y;
    }

    /**
     * Rows of data.
     *
     * @param features  row-major rows × p features
     * @param responses one per row
     */
    public record Rows(double[] features, double[] responses) {
    }
}
