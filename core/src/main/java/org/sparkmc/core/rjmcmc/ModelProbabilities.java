package org.sparkmc.core.rjmcmc;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.diagnostics.MonteCarloStandardError;

/**
 * Posterior model probabilities p(m | y) from the model-index draws of several chains, each with its Monte Carlo
 * standard error: p̂(m) is the pooled mean of the indicator 1{m_t = m}, and its MCSE is posterior's {@code mcse_mean}
 * of that indicator (sd over the square root of its ESS, so the chains' autocorrelation counts). MCSE is NaN where
 * the indicator is constant (never or always visited).
 */
public final class ModelProbabilities {
    private ModelProbabilities() {
    }

    /** One row of the table. */
    public record Row(int model, double probability, double mcse) {
    }

    /** Rows for models {@code from..to} from draws {@code [chain][iteration]} of the model index. */
    public static List<Row> of(double[][] modelDraws, int from, int to) {
        List<Row> rows = new ArrayList<>();
        for (int m = from; m <= to; m++) {
            int model = m;
            double[][] indicator = new double[modelDraws.length][];
            double sum = 0;
            long count = 0;
            for (int c = 0; c < modelDraws.length; c++) {
                indicator[c] = new double[modelDraws[c].length];
                for (int t = 0; t < modelDraws[c].length; t++) {
                    indicator[c][t] = modelDraws[c][t] == model ? 1 : 0;
                    sum += indicator[c][t];
                    count++;
                }
            }
            double p = sum / count;
            double mcse = p == 0 || p == 1 ? Double.NaN : MonteCarloStandardError.mean(indicator);
            rows.add(new Row(model, p, mcse));
        }
        return rows;
    }
}
