package org.sparkmc.spark.consensus;

import java.util.List;
import org.sparkmc.core.consensus.ShardCheck;
import org.sparkmc.core.consensus.ShardSampler;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.spark.diagnose.ParameterResult;

/**
 * The outcome of a {@code consensus} run.
 *
 * @param names        the reported quantities' names
 * @param combined     the combined draws of the reported quantities, [chain][parameter][iteration]
 * @param results      the combined draws' summaries and plot data, by parameter
 * @param shards       each shard's sampling outcome (positions), by shard
 * @param shardDraws   each shard's draws of the reported quantities, [shard][chain][parameter][iteration], then
 *                     lp__ as the last parameter row
 * @param shardSummaries each shard's summaries (R-hat and ESS over its chains), [shard] by parameter, lp__ last
 * @param disagreement the check of the shards' means against each other
 * @param skew         the check of each shard's mean against its mode
 * @param combinerAcceptance the index chain's acceptance of a density-product combiner, NaN for the average
 */
public record ConsensusResult(List<String> names, double[][][] combined, List<ParameterResult> results,
        List<ShardSampler.Result> shards, double[][][][] shardDraws,
        List<List<FullParameterSummary>> shardSummaries, ShardCheck disagreement, ShardCheck skew,
        double combinerAcceptance, double samplingSeconds, double seconds) {

    public List<FullParameterSummary> parameters() {
        return results.stream().map(ParameterResult::summary).toList();
    }

    /** The largest R-hat over every shard's summaries ({@link #maxRhat}). */
    public double maxShardRhat() {
        return maxRhat(shardSummaries.stream().flatMap(List::stream).toList());
    }

    /** The smallest bulk ESS over every shard's summaries ({@link #minEssBulk}). */
    public double minShardEss() {
        return minEssBulk(shardSummaries.stream().flatMap(List::stream).toList());
    }

    /**
     * The largest R-hat of {@code summaries}, lp__ included as the chains job includes it (its R-hat and ESS show a
     * chain that has not mixed, as any parameter's do, and its thresholds judge lp__ too); undefined ones skipped.
     */
    public static double maxRhat(List<FullParameterSummary> summaries) {
        return summaries.stream().mapToDouble(FullParameterSummary::rhat).filter(v -> !Double.isNaN(v)).max()
                .orElse(Double.NaN);
    }

    /** The smallest bulk ESS of {@code summaries}, lp__ included and undefined ones skipped as in {@link #maxRhat}. */
    public static double minEssBulk(List<FullParameterSummary> summaries) {
        return summaries.stream().mapToDouble(FullParameterSummary::essBulk).filter(v -> !Double.isNaN(v)).min()
                .orElse(Double.NaN);
    }
}
