package org.sparkmc.core.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sparkmc.core.catalog.KernelCatalog;
import org.sparkmc.core.catalog.ModelCatalog;
import org.sparkmc.core.diagnostics.EffectiveSampleSize;
import org.sparkmc.core.diagnostics.Rhat;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.KernelSettings;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;

/**
 * Bulk-ESS per second per core for each (model, kernel) pair, measured as PEERS.md measures Stan and JAGS: 4 chains
 * run one after another on one thread, warm-up not timed, min over the reported quantities of the bulk-ESS divided
 * by the sampling seconds. Each pair is run twice and the second (warm JIT) run reported. Mixture rows use the
 * label-invariant quantities only (log p(y, z), log-likelihood, sorted cluster sizes).
 *
 * <p>Usage, from the project root: {@code submit/bench core org.sparkmc.core.bench.KernelEfficiencyBenchmark}
 */
public final class KernelEfficiencyBenchmark {
    record Pair(String label, Target target, String kernel, double scale, boolean adapt, int warmup, int draws,
            int invariantQuantities) {
    }

    public static void main(String[] args) {
        ModelParameters eight = BenchData.json("data/eight_schools/eight_schools.json", Map.of());
        ModelParameters kidiq = BenchData.json("data/kidiq/kidiq.json", Map.of());
        ModelParameters pima = BenchData.json("data/pima/pima.json", Map.of("predictors",
                "npreg,glu,bp,skin,bmi,ped,age", "outcome", "type", "prior-sd", 10, "init", "mode"));
        ModelParameters gmm = new ModelParameters("gmm", Map.of("K", 4, "n", 300, "data-seed", 1));
        ModelParameters ising = new ModelParameters("ising", Map.of("height", 64, "width", 64, "image-seed", 1));
        Target eightT = ModelCatalog.create("eight_schools_noncentered", eight);
        Target kidiqT = ModelCatalog.create("kidscore_momiq", kidiq);
        Target pimaT = ModelCatalog.create("logistic_regression", pima);
        Target gmmT = ModelCatalog.create("gmm", gmm);
        Target gmmC = ModelCatalog.create("gmm_collapsed", gmm);
        Target isingT = ModelCatalog.create("ising_denoising", ising);
        List<Pair> pairs = List.of(
                new Pair("eight_schools_noncentered", eightT, "rwm", 0.5, true, 5000, 200000, 0),
                new Pair("eight_schools_noncentered", eightT, "am", 0.5, true, 5000, 200000, 0),
                new Pair("eight_schools_noncentered", eightT, "slice", 1, true, 1000, 50000, 0),
                new Pair("eight_schools_noncentered", eightT, "slice-doubling", 1, true, 1000, 50000, 0),
                new Pair("kidiq-kidscore_momiq", kidiqT, "am", 0.5, true, 20000, 200000, 0),
                new Pair("kidiq-kidscore_momiq", kidiqT, "slice", 1, true, 2000, 100000, 0),
                new Pair("kidiq-kidscore_momiq", kidiqT, "slice-doubling", 1, true, 2000, 100000, 0),
                new Pair("Pima logistic", pimaT, "laplace-rwm", 1, false, 500, 10000, 0),
                new Pair("Pima logistic", pimaT, "independence", 1, false, 500, 10000, 0),
                new Pair("Pima logistic", pimaT, "am", 0.1, true, 3000, 10000, 0),
                new Pair("Pima logistic", pimaT, "slice", 1, true, 300, 2000, 0),
                new Pair("GMM K=4, N=300 (full conditionals)", gmmT, "gibbs", 1, true, 200, 2000, 6),
                new Pair("GMM K=4, N=300 (collapsed)", gmmC, "gibbs", 1, true, 200, 2000, 6),
                new Pair("Ising 64×64 (J=1, σ=2)", isingT, "colour-gibbs", 1, true, 200, 2000, 4),
                new Pair("Ising 64×64 (J=1, σ=2)", isingT, "gibbs", 1, true, 200, 2000, 4));
        table(pairs);
    }

    /** Runs every pair twice and prints the second run's row of the Markdown table. */
    static void table(List<Pair> pairs) {
        System.out.printf("%n4 chains in sequence on 1 thread; %s; %s%n%n", java.time.LocalDate.now(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        System.out.println("| posterior | kernel | draws/chain | sampling s | min bulk-ESS | bulk-ESS/s/core | max R-hat |"
                + " acceptance |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        for (Pair p : pairs) {
            run(p, 1);
            double[] r = run(p, 2);
            System.out.printf("| %s | %s | %,d | %.2f | %,.0f | %,.0f | %.3f | %.3f |%n", p.label(), p.kernel(),
                    p.draws(), r[0], r[1], r[1] / r[0], r[2], r[3]);
        }
    }

    /** {sampling seconds, min bulk-ESS, max R-hat, acceptance}. */
    static double[] run(Pair p, long seed) {
        Target target = p.target();
        Kernel<?> kernel = KernelCatalog.create(p.kernel(), new KernelSettings(p.scale(), p.adapt(),
                Double.NaN, 1, p.warmup()), target);
        RandomStreams streams = new RandomStreams(seed);
        int chains = 4;
        int width = target.parameterNames().size();
        double[][][] draws = new double[width][chains][];
        double seconds = 0;
        long accepted = 0;
        for (int c = 0; c < chains; c++) {
            ChainState s = ChainRound.start(c + 1, target, kernel, streams);
            s = ChainRound.run(target, kernel, s, 1, p.warmup(), true, false, streams).state();
            long t0 = System.nanoTime();
            RoundResult r = ChainRound.run(target, kernel, s, 2, p.draws(), false, true, streams);
            seconds += (System.nanoTime() - t0) / 1e9;
            accepted += r.accepted();
            for (int q = 0; q < width; q++) {
                draws[q][c] = r.draws()[q];
            }
        }
        int quantities = p.invariantQuantities() > 0 ? p.invariantQuantities() : width;
        double minEss = Double.POSITIVE_INFINITY;
        double maxRhat = 0;
        List<String> names = new ArrayList<>(target.parameterNames());
        for (int q = 0; q < quantities; q++) {
            double ess = EffectiveSampleSize.bulk(draws[q]);
            if (!Double.isNaN(ess)) {
                minEss = Math.min(minEss, ess);
            }
            double rhat = Rhat.rhat(draws[q]);
            if (!Double.isNaN(rhat)) {
                maxRhat = Math.max(maxRhat, rhat);
            }
        }
        names.clear();
        return new double[] {seconds, minEss, maxRhat, (double) accepted / (chains * (long) p.draws())};
    }
}
