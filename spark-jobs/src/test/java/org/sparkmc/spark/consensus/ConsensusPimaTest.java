package org.sparkmc.spark.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.testing.ImportanceReference;
import org.sparkmc.core.testing.PimaData;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.TestPaths;

/**
 * Consensus on the Pima data (532 rows; an intercept and 7 standardised predictors; N(0, 10²) priors) against the
 * reference core's logistic-regression tests use: self-normalised importance sampling of the full-data posterior,
 * 50,000 draws, with its own MCSE ({@link ImportanceReference}).
 *
 * <p>Measured (4 chains × 2,000 draws, seed 5; the worst of the 8 coefficients): S = 1, 0.015 sd off and sds within
 * 1.3%; S = 2 (266 rows a shard), 0.070 sd and 2.2%; S = 4 (133 rows), 0.38 sd and 9.7%; S = 8 (67 rows), 0.45 sd
 * and 32%, every sd too wide. (With inverse sample covariances as the weights instead of the shards' Laplace
 * precisions: 0.085, 0.30 and 0.40 sd, 2.2%, 9.4% and 22%.) That is consensus Monte Carlo's known small-shard bias: with 67 rows and 8
 * coefficients each sub-posterior is skewed and its prior, raised to 1/S, weak, so the Gaussian combination of
 * non-Gaussian pieces inflates the spread. The Monte Carlo error of a mean is about 0.02 sd (bulk ESS ≥ 2,000 per
 * run, and the reference's MCSE is smaller), so the bounds asserted below are many of its sds away from the
 * measured values: S = 1 and S = 2 within 0.15 sd and 5%, and for S = 4 and 8 bounds on the bias as measured
 * (0.6 sd, 40%) that catch a combination gone wrong (a wrong prior power moves means by several sds). The seeds are
 * fixed, so the test is deterministic.
 *
 * <p>The disagreement check stays silent at every S here, rightly by its own test: small shards' sub-posteriors are
 * wide, so their means lie well within each other's sds. The skew check ({@code ShardSkew}) is the one that must
 * warn, and it does at S = 4 and 8 (a shard's mean 0.51 and 0.88 of its sds from its mode) and not at S = 1 or 2
 * (0.19, 0.27); the test requires exactly that.
 */
class ConsensusPimaTest extends SparkTestBase {
    @TempDir
    Path tmp;

    @Test
    void consensusOnPimaAgainstTheReference() throws IOException {
        PimaData pima = PimaData.read(TestPaths.sharedData().resolve("pima/pima.csv"));
        double[][] reference = ImportanceReference.of(pima.model(false), 50_000, 91);
        List<String> features = new ArrayList<>();
        for (String name : pima.names()) {
            features.add(name.substring(2, name.length() - 1));
        }
        Path csv = tmp.resolve("pima.csv");
        StringBuilder text = new StringBuilder("type," + String.join(",", features) + "\n");
        int p = pima.columns();
        for (int i = 0; i < pima.outcome().length; i++) {
            text.append((int) pima.outcome()[i]);
            for (int j = 0; j < p; j++) {
                text.append(',').append(pima.design()[i * p + j]);
            }
            text.append('\n');
        }
        Files.writeString(csv, text);
        for (int shards : new int[] {1, 2, 4, 8}) {
            Path out = tmp.resolve("s" + shards);
            ConsensusRuns.consensus(csv.toString(), out, "--response", "type", "--shards", Integer.toString(shards),
                    "--iterations", "2000", "--seed", "5");
            List<Row> rows = ConsensusRuns.draws(spark(), out);
            double worstMean = 0;
            double worstSd = 0;
            for (int j = 0; j < p; j++) {
                double[] x = ConsensusRuns.column(rows, features.get(j));
                double z = (ConsensusRuns.mean(x) - reference[j][0]) / reference[j][1];
                double ratio = ConsensusRuns.sd(x) / reference[j][1];
                System.out.printf(Locale.ROOT, "S=%d %s: mean off by %.3f sd, sd ratio %.3f%n", shards,
                        features.get(j), z, ratio);
                worstMean = Math.max(worstMean, Math.abs(z));
                worstSd = Math.max(worstSd, Math.abs(ratio - 1));
            }
            String summary = Files.readString(out.resolve("summary.json"));
            boolean disagree = summary.matches("(?s).*\"disagree\"\\s*:\\s*true.*");
            boolean skewed = summary.matches("(?s).*\"skewed\"\\s*:\\s*true.*");
            System.out.printf(Locale.ROOT, "S=%d: worst mean %.3f sd, worst sd ratio off by %.3f; the shards %s; "
                    + "skew warning %b%n", shards, worstMean, worstSd, disagree ? "disagree" : "agree", skewed);
            assertEquals(shards >= 4, skewed, "S=" + shards + ": the skew warning");
            double meanBound = shards <= 2 ? 0.15 : 0.6;
            double sdBound = shards <= 2 ? 0.05 : 0.4;
            assertTrue(worstMean < meanBound, "S=" + shards + ": a mean " + worstMean + " sd off the reference");
            assertTrue(worstSd < sdBound, "S=" + shards + ": an sd " + worstSd + " off the reference, relative");
        }
    }
}
