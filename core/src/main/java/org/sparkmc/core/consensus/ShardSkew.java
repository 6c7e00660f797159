package org.sparkmc.core.consensus;

import java.util.List;
import java.util.Locale;

/**
 * Whether the shards' sub-posteriors are Gaussian enough for the consensus average, which is exact only for
 * Gaussian ones: for each shard and coordinate, the distance between the mean of its draws and its mode (its
 * Laplace approximation's), in sds of its draws. A Gaussian sub-posterior has them equal; a shard of few rows per
 * coefficient has a skewed sub-posterior, and the average of such shards is biased.
 *
 * <p>The threshold, {@value #THRESHOLD} sd, is set from measurements on the Pima data (8 coefficients, 4 × 2,000
 * draws per shard), where the worst distance and the combined mean's worst error against the full posterior were:
 * S = 1, 0.19 and 0.02 sd (the full posterior is itself that skewed, and one shard is exact); S = 2, 0.27 and
 * 0.07; S = 4, 0.51 and 0.38; S = 8, 0.88 and 0.45. It is a rule of thumb, not a test with a false-alarm rate: it
 * warns where the combination has been seen to go wrong.
 */
public final class ShardSkew {
    /** Warn above this distance between a shard's mean and its mode, in its sds. */
    public static final double THRESHOLD = 0.4;

    private ShardSkew() {
    }

    /**
     * @param modes each shard's mode, [shard][coordinate]
     * @param names the coordinates' names, for the message
     */
    public static ShardCheck check(ShardDraws draws, double[][] modes, List<String> names) {
        int d = draws.dimension();
        if (modes.length != draws.shards() || names.size() != d) {
            throw new IllegalArgumentException(modes.length + " modes and " + names.size() + " names for "
                    + draws.shards() + " shards of " + d + " coordinates");
        }
        double largest = 0;
        int worstShard = 0;
        int worstCoordinate = 0;
        for (int s = 0; s < draws.shards(); s++) {
            double[] mean = draws.mean(s);
            double[] cov = draws.covariance(s);
            for (int j = 0; j < d; j++) {
                double distance = Math.abs(mean[j] - modes[s][j]) / Math.sqrt(cov[j * d + j]);
                if (!(distance <= largest)) {
                    largest = distance;
                    worstShard = s;
                    worstCoordinate = j;
                }
            }
        }
        boolean skewed = !(largest <= THRESHOLD);
        String where = String.format(Locale.ROOT, "shard %d's mean of %s is %.2f of its sds from its mode",
                worstShard, names.get(worstCoordinate), largest);
        String message = skewed
                ? "a shard's sub-posterior is skewed: " + where + String.format(Locale.ROOT, " (threshold %.2f). The"
                        + " consensus average is exact for Gaussian sub-posteriors only; on Pima, 8 shards of 67 rows"
                        + " with this much skew put the combined means up to 0.45 sd off. Use fewer, larger shards",
                        THRESHOLD)
                : "the shards' sub-posteriors look Gaussian: " + where + String.format(Locale.ROOT,
                        ", below %.2f", THRESHOLD);
        return new ShardCheck(skewed, largest, worstShard, worstCoordinate, THRESHOLD, message);
    }
}
