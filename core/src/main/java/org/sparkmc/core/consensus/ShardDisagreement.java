package org.sparkmc.core.consensus;

import java.util.List;
import java.util.Locale;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.sparkmc.core.InvalidInputException;

/**
 * Whether the shards' sub-posteriors are too far apart for their combination to be trusted. Consensus Monte Carlo
 * assumes that every shard's data tell roughly the same story: when rows were assigned to shards by something
 * related to the response, or the model is wrong, the sub-posteriors separate and any combination of them is
 * dominated by where their tails happen to overlap.
 *
 * <p>The rule, leave one shard out: let m_{s,j} and v_{s,j} be shard s's sample mean and variance of coordinate j,
 * and m_{−s,j} the precision-weighted mean of the other shards' means (weights 1/v_{r,j}, its variance
 * v_{−s,j} = 1/Σ_{r≠s} 1/v_{r,j}). The shards disagree when for some s and j
 *
 * <pre>
 *   z_{s,j} = |m_{s,j} − m_{−s,j}| / √(v_{s,j} + v_{−s,j})  &gt;  z* = Φ⁻¹(1 − α/(2·S·d)).
 * </pre>
 *
 * When the shards hold exchangeable rows, each shard's sub-posterior mean scatters about the full-data one by about
 * its sub-posterior sd, independently of the others, so each z_{s,j} is roughly |N(0, 1)| and z* is a Bonferroni
 * bound: the check fires with probability of about α or less on agreeing shards. Leaving the shard out keeps a
 * shard with much of the data from dragging the comparison towards itself. One shard never disagrees.
 */
public final class ShardDisagreement {
    /** The default α: the share of false warnings on agreeing shards. */
    public static final double DEFAULT_ALPHA = 1e-3;

    private ShardDisagreement() {
    }

    /**
     * @param names the coordinates' names, for the message
     * @param alpha the false-warning rate α in (0, 1)
     */
    public static ShardCheck check(ShardDraws draws, List<String> names, double alpha) {
        int shards = draws.shards();
        int d = draws.dimension();
        if (names.size() != d) {
            throw new IllegalArgumentException(names.size() + " names for " + d + " coordinates");
        }
        if (!(alpha > 0 && alpha < 1)) {
            throw new InvalidInputException("the disagreement check's alpha must be in (0, 1), is " + alpha);
        }
        double largest = 0;
        int worstShard = 0;
        int worstCoordinate = 0;
        double worstOthers = draws.mean(0)[0];
        double worstScale = 1;
        for (int j = 0; j < d; j++) {
            double weightedAll = 0;
            double precisionAll = 0;
            for (int s = 0; s < shards; s++) {
                double w = 1 / draws.covariance(s)[j * d + j];
                weightedAll += w * draws.mean(s)[j];
                precisionAll += w;
            }
            for (int s = 0; shards > 1 && s < shards; s++) {
                double v = draws.covariance(s)[j * d + j];
                double precisionOthers = precisionAll - 1 / v;
                double others = (weightedAll - draws.mean(s)[j] / v) / precisionOthers;
                double scale = Math.sqrt(v + 1 / precisionOthers);
                double z = Math.abs(draws.mean(s)[j] - others) / scale;
                if (!(z <= largest)) {
                    largest = z;
                    worstShard = s;
                    worstCoordinate = j;
                    worstOthers = others;
                    worstScale = scale;
                }
            }
        }
        double threshold = NormalDistribution.of(0, 1).inverseSurvivalProbability(alpha / (2.0 * shards * d));
        boolean disagree = !(largest <= threshold);
        String where = String.format(Locale.ROOT, "shard %d's mean of %s, %.4g, is %.2f sds (%.4g) from the other shards'"
                + " pooled mean %.4g", worstShard, names.get(worstCoordinate), draws.mean(worstShard)[worstCoordinate],
                largest, worstScale, worstOthers);
        String message = disagree
                ? "the shards disagree: " + where + String.format(Locale.ROOT, "; the threshold is %.2f (a %.2g false-warning"
                        + " rate over %d shards × %d coordinates). Combined draws assume overlapping sub-posteriors:"
                        + " check how rows were assigned to shards, and the model", threshold, alpha, shards, d)
                : "the shards agree: " + where + String.format(Locale.ROOT, ", below the threshold %.2f", threshold);
        return new ShardCheck(disagree, largest, worstShard, worstCoordinate, threshold, message);
    }
}
