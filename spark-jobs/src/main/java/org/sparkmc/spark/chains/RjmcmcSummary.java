package org.sparkmc.spark.chains;

import static org.sparkmc.spark.diagnose.SummaryFiles.csvNumber;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sparkmc.core.diagnostics.EffectiveSampleSize;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.core.diagnostics.MonteCarloStandardError;
import org.sparkmc.core.mcmc.ObservedKernel;
import org.sparkmc.core.rjmcmc.MoveRate;
import org.sparkmc.core.rjmcmc.NormalMixture;
import org.sparkmc.core.rjmcmc.PredictiveDensity;
import org.sparkmc.core.rjmcmc.MoveCounter;
import org.sparkmc.core.rjmcmc.RjmcmcKernel;
import org.sparkmc.core.rjmcmc.TransDimensionalTarget;
import org.sparkmc.spark.diagnose.ParameterResult;
import org.sparkmc.spark.diagnose.SummaryFiles;

/**
 * What a reversible-jump run of the {@code chains} job (kernel {@code rjmcmc} on a trans-dimensional model) reports
 * besides the per-parameter summaries: posterior model probabilities ({@code model_probs.csv}), the posterior
 * predictive density of a normal mixture with pointwise bands ({@code predictive.csv}) and acceptance rates per move
 * type (in {@code summary.json}).
 *
 * <p><b>p(m | y)</b> for every model m visited: the pooled mean of the indicator 1{m_t = m} over every sampling
 * draw of every chain (the model index is the target's first reported parameter). Its MCSE is posterior's
 * {@code mcse_mean} of the indicator, sd / sqrt(ess_mean), where ess_mean is the basic ESS of the split chains
 * (Geyer's initial monotone sequence on the multi-chain autocorrelations), so the chains' autocorrelation counts —
 * the definition of core's {@link org.sparkmc.core.rjmcmc.ModelProbabilities}. Also per chain: the fraction of that
 * chain's draws in m. Uses all draws, on the driver's copy or in one executor task ({@link ChainsJob#onParameter}).
 *
 * <p><b>Predictive density</b> ({@link NormalMixture} only): the model reports the mixture density
 * f(t) = Σ_j w_j N(t; μ_j, σ²_j) at fixed grid points as parameters {@code f[1..G]}, a label-invariant quantity
 * every draw carries. Their summaries — mean, 5% and 95% quantiles over every pooled draw, computed as for every
 * parameter (by parameter on the executors when the draws are large) — are the predictive density E[f(t) | y] with
 * its MCSE and its pointwise 5–95% band. No thinning is needed; the grid's resolution is the model's
 * ({@code grid_points}).
 *
 * @param modelIndex the model index's parameter name (e.g. {@code k})
 * @param models     one row per visited model, in increasing order
 * @param moveRates  proposals and acceptances per move label over the sampling iterations (all chains)
 * @param warmupMoveRates the same over the warm-up iterations
 * @param predictive the predictive density with its 5–95% band, or null if the model reports none
 * @param predictiveMcse MCSE of the predictive density at each grid point (null with {@code predictive})
 * @param data       the data under the predictive density (null with {@code predictive})
 */
public record RjmcmcSummary(String modelIndex, List<ModelRow> models, List<MoveRate> moveRates,
        List<MoveRate> warmupMoveRates, PredictiveDensity predictive, double[] predictiveMcse, double[] data) {

    /**
     * One model's posterior probability.
     *
     * @param ess      ESS of the indicator (ess_mean; NaN when the indicator is constant)
     * @param perChain the fraction of each chain's draws in this model, chains in id order
     */
    public record ModelRow(int model, double probability, double mcse, double ess, double[] perChain) {
    }

    /** The summary of a run, or null unless it ran the {@code rjmcmc} kernel on a trans-dimensional target. */
    static RjmcmcSummary of(ChainsJob job, ChainsConfig config, ChainsResult result) {
        if (!(ObservedKernel.unwrap(config.kernel()) instanceof RjmcmcKernel)
                || !(config.target() instanceof TransDimensionalTarget target)) {
            return null;
        }
        double[][] table = job.onParameter(0, RjmcmcSummary::modelTable);
        List<ModelRow> rows = new ArrayList<>();
        for (double[] r : table) {
            rows.add(new ModelRow((int) r[0], r[1], r[2], r[3], java.util.Arrays.copyOfRange(r, 4, r.length)));
        }
        List<MoveRate> sampling = MoveCounter.rates(config.kernel(), target, job.states(), false);
        List<MoveRate> warmup = MoveCounter.rates(config.kernel(), target, job.states(), true);
        PredictiveDensity predictive = null;
        double[] mcse = null;
        double[] data = null;
        if (target instanceof NormalMixture mixture && mixture.grid().length >= 2) {
            double[] grid = mixture.grid();
            Map<String, FullParameterSummary> byName = new HashMap<>();
            for (ParameterResult r : result.results()) {
                byName.put(r.summary().name(), r.summary());
            }
            double[] mean = new double[grid.length];
            double[] lower = new double[grid.length];
            double[] upper = new double[grid.length];
            mcse = new double[grid.length];
            boolean complete = true;
            for (int i = 0; i < grid.length && complete; i++) {
                FullParameterSummary s = byName.get("f[" + (i + 1) + "]");
                complete = s != null;
                if (complete) {
                    mean[i] = s.mean();
                    lower[i] = s.q5();
                    upper[i] = s.q95();
                    mcse[i] = s.mcseMean();
                }
            }
            if (complete) {
                predictive = new PredictiveDensity(grid, mean, lower, upper, 0.05, 0.95);
                data = mixture.data();
            } else {
                mcse = null;
            }
        }
        return new RjmcmcSummary(target.parameterNames().get(0), List.copyOf(rows), sampling, warmup, predictive,
                mcse, data);
    }

    /**
     * Rows {@code [m, p(m|y), mcse, ess_mean, p_chain1, ..., p_chainC]} for every model index m in the draws
     * {@code [chain][iteration]}, in increasing m.
     */
    static double[][] modelTable(double[][] modelDraws) {
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (double[] chain : modelDraws) {
            for (double v : chain) {
                min = Math.min(min, (int) v);
                max = Math.max(max, (int) v);
            }
        }
        List<double[]> rows = new ArrayList<>();
        int chains = modelDraws.length;
        for (int m = min; m <= max; m++) {
            double[][] indicator = new double[chains][];
            double[] row = new double[4 + chains];
            long hits = 0;
            long total = 0;
            for (int c = 0; c < chains; c++) {
                double[] chain = modelDraws[c];
                indicator[c] = new double[chain.length];
                long inChain = 0;
                for (int t = 0; t < chain.length; t++) {
                    if ((int) chain[t] == m) {
                        indicator[c][t] = 1;
                        inChain++;
                    }
                }
                row[4 + c] = chain.length == 0 ? Double.NaN : (double) inChain / chain.length;
                hits += inChain;
                total += chain.length;
            }
            if (hits == 0) {
                continue;
            }
            row[0] = m;
            row[1] = (double) hits / total;
            boolean constant = hits == total;
            row[2] = constant ? Double.NaN : MonteCarloStandardError.mean(indicator);
            row[3] = constant ? Double.NaN : EffectiveSampleSize.mean(indicator);
            rows.add(row);
        }
        return rows.toArray(double[][]::new);
    }

    /** {@code model_probs.csv}: the model index, p, mcse, ess_mean, then p per chain ({@code chain_1}...). */
    String modelProbsCsv() {
        StringBuilder csv = new StringBuilder(modelIndex).append(",probability,mcse,ess_mean");
        int chains = models.isEmpty() ? 0 : models.get(0).perChain().length;
        for (int c = 1; c <= chains; c++) {
            csv.append(",chain_").append(c);
        }
        csv.append('\n');
        for (ModelRow r : models) {
            csv.append(r.model()).append(',').append(csvNumber(r.probability())).append(',')
                    .append(csvNumber(r.mcse())).append(',').append(csvNumber(r.ess()));
            for (double p : r.perChain()) {
                csv.append(',').append(csvNumber(p));
            }
            csv.append('\n');
        }
        return csv.toString();
    }

    /** {@code predictive.csv}: grid point, predictive density, its MCSE, and the 5% and 95% pointwise quantiles. */
    String predictiveCsv() {
        StringBuilder csv = new StringBuilder("x,density,mcse,q5,q95\n");
        for (int i = 0; i < predictive.grid().length; i++) {
            csv.append(csvNumber(predictive.grid()[i])).append(',').append(csvNumber(predictive.mean()[i]))
                    .append(',').append(csvNumber(predictiveMcse[i])).append(',')
                    .append(csvNumber(predictive.lower()[i])).append(',').append(csvNumber(predictive.upper()[i]))
                    .append('\n');
        }
        return csv.toString();
    }

    /** The trapezoid-rule integral of the predictive density over its grid (≈ 1 when the grid covers the mass). */
    double predictiveIntegral() {
        double[] x = predictive.grid();
        double[] f = predictive.mean();
        double sum = 0;
        for (int i = 1; i < x.length; i++) {
            sum += 0.5 * (f[i] + f[i - 1]) * (x[i] - x[i - 1]);
        }
        return sum;
    }

    /** The {@code rjmcmc} block of summary.json. */
    Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("model_index", modelIndex);
        List<Object> probabilities = new ArrayList<>();
        for (ModelRow r : models) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put(modelIndex, r.model());
            row.put("probability", SummaryFiles.finite(r.probability()));
            row.put("mcse", SummaryFiles.finite(r.mcse()));
            row.put("ess_mean", SummaryFiles.finite(r.ess()));
            probabilities.add(row);
        }
        m.put("model_probabilities", probabilities);
        m.put("move_rates", rates(moveRates));
        m.put("move_rates_warmup", rates(warmupMoveRates));
        if (predictive != null) {
            m.put("predictive_grid_points", predictive.grid().length);
            m.put("predictive_integral", SummaryFiles.finite(predictiveIntegral()));
        }
        return m;
    }

    private static List<Object> rates(List<MoveRate> rates) {
        List<Object> out = new ArrayList<>();
        for (MoveRate r : rates) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("move", r.move());
            m.put("proposed", r.proposed());
            m.put("accepted", r.accepted());
            m.put("rate", SummaryFiles.finite(r.rate()));
            out.add(m);
        }
        return out;
    }
}
