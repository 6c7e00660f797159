package org.sparkmc.core.consensus;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;

/**
 * Issue 20's accuracy check at its own size, on what the {@code consensus} job runs per shard (no Spark): 100,000
 * synthetic logistic rows, an intercept and 19 N(0, 1) features, true coefficients 1, −1/2, 1/3, … (as
 * {@code generate-glm} makes them). The rows are cut into S = 2, 4, 8, 16 and 32 shards by {@link ShardAssignment},
 * each shard sampled by {@link ShardSampler} with the job's defaults (independence, 4 chains × (100 + 1,000)), and
 * the shards combined by {@link ConsensusAverage} weighted by their Laplace precisions, as the job does; the
 * reference is the same sampler with S = 1 on every row.
 * Required, as issue 20 states it: every combined mean within 0.1 reference sd and every sd within 10%, for S up to
 * 16. Measured (the worst of the 20 coefficients): S = 2, 0.040 sd and 2.7%; 4, 0.044 and 4.5%; 8, 0.046 and 3.5%;
 * 16, 0.069 and 5.1%; 32, 0.099 and 3.7%. At S = 32 (3,125 rows for 20 coefficients) the worst mean is at the
 * issue's bound, so the test holds it to 0.15 sd: the small-shard bias that grows with S shows there, and the
 * issue's range of 10⁵–10⁶ rows meets 0.1 with room only toward 10⁶.
 *
 * <p>Monte Carlo error: bulk ESS is about 2,000–3,000 on both sides, so the difference of two means has an sd of
 * about 0.03 reference sds and an sd ratio about 2%; the bounds are 3 and 5 of those sds. Over 20 means and 20 sds
 * at five S, a correct combination fails by chance with probability below 1% for a random seed; the seeds are fixed,
 * so the test is deterministic. What it measures is the combination's own bias, which grows as the shards shrink
 * (3,125 rows for 20 coefficients at S = 32). Tagged heavy: about 3 minutes of one core.
 */
@Tag("heavy")
class ConsensusAccuracyAtScaleTest {
    private static final int ROWS = 100_000;
    private static final int P = 20;
    private static final long SEED = 20;

    @Test
    void consensusMatchesTheFullDataPosteriorFromTwoToThirtyTwoShards() {
        Glm glm = new LogisticGlm(Glm.coefficientNames(P));
        double[] truth = new double[P];
        for (int j = 0; j < P; j++) {
            truth[j] = (j % 2 == 0 ? 1.0 : -1.0) / (j + 1);
        }
        SyntheticGlmData.Rows all = new SyntheticGlmData(glm, truth, true, new RandomStreams(SEED)).rows(0, ROWS);
        ShardSampler.Settings settings = new ShardSampler.Settings("independence", Double.NaN, 4,
                ShardSampler.INDEPENDENCE_WARMUP, 1000);
        double[][] reference = meanAndSd(sample(glm, all, 1, settings));
        for (int shards : new int[] {2, 4, 8, 16, 32}) {
            double[][] combined = meanAndSd(sample(glm, all, shards, settings));
            double worstMean = 0;
            double worstSd = 0;
            for (int j = 0; j < P; j++) {
                worstMean = Math.max(worstMean, Math.abs(combined[0][j] - reference[0][j]) / reference[1][j]);
                worstSd = Math.max(worstSd, Math.abs(combined[1][j] / reference[1][j] - 1));
            }
            System.out.printf(Locale.ROOT, "S=%d (%d rows a shard): worst mean %.3f sd, worst sd %.3f relative%n",
                    shards, ROWS / shards, worstMean, worstSd);
            assertTrue(worstMean < (shards <= 16 ? 0.1 : 0.15), "S=" + shards + ": a mean " + worstMean
                    + " reference sds off");
            assertTrue(worstSd < 0.1, "S=" + shards + ": an sd " + worstSd + " off, relative");
        }
    }

    /** The shards' draws combined by the consensus average: [draw][coordinate]. */
    private static double[][] sample(Glm glm, SyntheticGlmData.Rows all, int shards, ShardSampler.Settings settings) {
        List<List<double[]>> rowsByShard = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            rowsByShard.add(new ArrayList<>());
        }
        for (int i = 0; i < ROWS; i++) {
            double[] row = new double[P + 1];
            row[0] = all.responses()[i];
            System.arraycopy(all.features(), i * P, row, 1, P);
            rowsByShard.get(ShardAssignment.shard(ShardAssignment.key(SEED, row), shards)).add(row);
        }
        int t = settings.iterations();
        double[][][] positions = new double[shards][][];
        double[][] precisions = new double[shards][];
        for (int s = 0; s < shards; s++) {
            SyntheticGlmData.Rows rows = ShardAssignment.ordered(SEED, rowsByShard.get(s).toArray(double[][]::new), P);
            ShardSampler.Result r = ShardSampler.run(glm, rows.features(), rows.responses(), 10, shards, s, settings,
                    new RandomStreams(SEED));
            precisions[s] = r.precision();
            positions[s] = new double[settings.chains() * t][P];
            for (int c = 0; c < settings.chains(); c++) {
                for (int i = 0; i < t; i++) {
                    for (int j = 0; j < P; j++) {
                        positions[s][c * t + i][j] = r.draws()[c][j][i];
                    }
                }
            }
        }
        return shards == 1 ? positions[0]
                : ConsensusAverage.byPrecisions(precisions).combine(ShardDraws.of(positions), null).draws();
    }

    private static double[][] meanAndSd(double[][] draws) {
        double[][] out = new double[2][P];
        for (int j = 0; j < P; j++) {
            double mean = 0;
            for (double[] d : draws) {
                mean += d[j];
            }
            mean /= draws.length;
            double ss = 0;
            for (double[] d : draws) {
                ss += (d[j] - mean) * (d[j] - mean);
            }
            out[0][j] = mean;
            out[1][j] = Math.sqrt(ss / (draws.length - 1));
        }
        return out;
    }
}
