package org.sparkmc.core.consensus;

import org.sparkmc.core.InvalidInputException;

/**
 * The draws of S shards' sub-posteriors on the unconstrained scale, T draws of dimension d each
 * ({@code draws[s][t][j]}), with each shard's sample mean and covariance, computed once here for the combiners
 * and the disagreement check. The arrays are held, not copied.
 */
public final class ShardDraws {
    private final double[][][] draws;
    private final int shards;
    private final int perShard;
    private final int dimension;
    private final double[][] means;
    /** Row-major d × d sample covariances (divisor T − 1). */
    private final double[][] covariances;

    private ShardDraws(double[][][] draws) {
        this.draws = draws;
        this.shards = draws.length;
        this.perShard = draws[0].length;
        this.dimension = draws[0][0].length;
        this.means = new double[shards][];
        this.covariances = new double[shards][];
        for (int s = 0; s < shards; s++) {
            means[s] = mean(draws[s], dimension);
            covariances[s] = covariance(draws[s], means[s], dimension);
        }
    }

    /**
     * Checks that there is at least one shard, every shard has the same number T ≥ 2 of draws of the same dimension
     * d ≥ 1, and every value is finite.
     *
     * @throws InvalidInputException naming the first shard and draw that breaks this
     */
    public static ShardDraws of(double[][][] draws) {
        if (draws.length == 0 || draws[0].length < 2 || draws[0][0].length == 0) {
            throw new InvalidInputException("consensus needs at least one shard with at least two draws of"
                    + " dimension ≥ 1");
        }
        int t = draws[0].length;
        int d = draws[0][0].length;
        for (int s = 0; s < draws.length; s++) {
            if (draws[s].length != t) {
                throw new InvalidInputException("shard " + s + " has " + draws[s].length + " draws, shard 0 has " + t
                        + ": every shard must keep the same number");
            }
            for (int i = 0; i < t; i++) {
                if (draws[s][i].length != d) {
                    throw new InvalidInputException("shard " + s + ", draw " + i + " has dimension "
                            + draws[s][i].length + ", expected " + d);
                }
                for (int j = 0; j < d; j++) {
                    if (!Double.isFinite(draws[s][i][j])) {
                        throw new InvalidInputException("shard " + s + ", draw " + i + ", coordinate " + j + " is "
                                + draws[s][i][j] + ", expected a finite number");
                    }
                }
            }
        }
        return new ShardDraws(draws);
    }

    static double[] mean(double[][] rows, int d) {
        double[] m = new double[d];
        for (double[] row : rows) {
            for (int j = 0; j < d; j++) {
                m[j] += row[j];
            }
        }
        for (int j = 0; j < d; j++) {
            m[j] /= rows.length;
        }
        return m;
    }

    /** Row-major sample covariance about {@code mean}, divisor n − 1. */
    static double[] covariance(double[][] rows, double[] mean, int d) {
        double[] c = new double[d * d];
        double[] dev = new double[d];
        for (double[] row : rows) {
            for (int j = 0; j < d; j++) {
                dev[j] = row[j] - mean[j];
            }
            for (int a = 0; a < d; a++) {
                for (int b = 0; b <= a; b++) {
                    c[a * d + b] += dev[a] * dev[b];
                }
            }
        }
        for (int a = 0; a < d; a++) {
            for (int b = 0; b <= a; b++) {
                c[a * d + b] /= rows.length - 1;
                c[b * d + a] = c[a * d + b];
            }
        }
        return c;
    }

    /** S. */
    public int shards() {
        return shards;
    }

    /** T, the draws each shard kept. */
    public int perShard() {
        return perShard;
    }

    /** d. */
    public int dimension() {
        return dimension;
    }

    /** Draw t of shard s (the array held, not a copy). */
    public double[] draw(int s, int t) {
        return draws[s][t];
    }

    /** Shard s's sample mean (the array held, not a copy). */
    public double[] mean(int s) {
        return means[s];
    }

    /** Shard s's row-major d × d sample covariance (divisor T − 1; the array held, not a copy). */
    public double[] covariance(int s) {
        return covariances[s];
    }
}
