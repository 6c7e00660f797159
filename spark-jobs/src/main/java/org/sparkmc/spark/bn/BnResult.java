package org.sparkmc.spark.bn;

import java.util.List;
import org.sparkmc.core.diagnostics.FullParameterSummary;

/**
 * What a {@code bn} run found.
 *
 * @param queries               one per query variable, in query order
 * @param samples               samples drawn (weighted methods) or kept Gibbs draws over all chains (0 for exact)
 * @param ess                   the weights' ESS (Kish) for weighted methods; the smallest state's ESS for Gibbs
 * @param evidenceProbability   estimate of P(e): the mean weight (likelihood weighting), the acceptance rate
 *                              (rejection), the exact value (exact); NaN for Gibbs
 * @param evidenceProbabilitySe its standard error
 * @param exactEvidenceProbability P(e) by variable elimination, NaN if not computed
 * @param indicators            Gibbs: the full summary of every indicator 1[X = s] (named "X=s"); else empty
 * @param converged             Gibbs: every indicator passes R-hat and ESS; true for other methods
 * @param history               Gibbs: one line per sampling round; weighted methods: one per wave
 */
public record BnResult(BnMethod method, List<QueryResult> queries, long samples, double ess,
        double evidenceProbability, double evidenceProbabilitySe, double exactEvidenceProbability,
        List<FullParameterSummary> indicators, boolean converged, double seconds, int partitions,
        List<Step> history) {

    /** One progress step: samples (or draws per chain) so far, max R-hat (Gibbs) and min ESS, seconds. */
    public record Step(int step, long samples, double maxRhat, double minEss, double seconds) {
    }
}
