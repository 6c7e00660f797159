package org.sparkmc.core.bench;

import java.util.List;
import java.util.Map;
import org.sparkmc.core.catalog.ModelCatalog;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.model.Target;

/**
 * NUTS's bulk-ESS per second per core on the posteriors PEERS.md measured Stan on (eight_schools_noncentered,
 * kidiq, Pima), and on the 102-parameter 100-school posterior against the gradient-free kernels, measured exactly as
 * {@link KernelEfficiencyBenchmark} measures (4 chains in sequence on one thread, warm-up not timed, min bulk-ESS
 * over the reported quantities, the second of two runs reported).
 *
 * <p>Usage, from the project root, after {@code mvn -Pbench -pl core test-compile}: {@code java -cp
 * core/target/test-classes:core/target/classes:<test classpath> org.sparkmc.core.bench.NutsBenchmark [rows]}, rows
 * one of {@code peers}, {@code hundred} (default both).
 */
public final class NutsBenchmark {
    private NutsBenchmark() {
    }

    public static void main(String[] args) {
        String rows = args.length > 0 ? args[0] : "peers,hundred";
        ModelParameters eight = BenchData.json("data/eight_schools/eight_schools.json", Map.of());
        ModelParameters kidiq = BenchData.json("data/kidiq/kidiq.json", Map.of());
        ModelParameters pima = BenchData.json("data/pima/pima.json", Map.of("predictors",
                "npreg,glu,bp,skin,bmi,ped,age", "outcome", "type", "prior-sd", 10));
        ModelParameters hundred = BenchData.json("data/schools100/schools100.json", Map.of());
        Target eightT = ModelCatalog.create("eight_schools_noncentered", eight);
        Target kidiqT = ModelCatalog.create("kidscore_momiq", kidiq);
        Target pimaT = ModelCatalog.create("logistic_regression", pima);
        Target hundredT = ModelCatalog.create("eight_schools_noncentered", hundred);
        List<KernelEfficiencyBenchmark.Pair> pairs = new java.util.ArrayList<>();
        if (rows.contains("peers")) {
            pairs.add(new KernelEfficiencyBenchmark.Pair("eight_schools_noncentered", eightT, "nuts", 1, true, 1000,
                    20_000, 0));
            pairs.add(new KernelEfficiencyBenchmark.Pair("kidiq-kidscore_momiq", kidiqT, "nuts", 1, true, 1000,
                    20_000, 0));
            pairs.add(new KernelEfficiencyBenchmark.Pair("Pima logistic", pimaT, "nuts", 1, true, 1000, 10_000, 0));
        }
        if (rows.contains("hundred")) {
            String label = "100 schools (102 parameters)";
            pairs.add(new KernelEfficiencyBenchmark.Pair(label, hundredT, "nuts", 1, true, 1000, 10_000, 0));
            pairs.add(new KernelEfficiencyBenchmark.Pair(label, hundredT, "am", 0.5, true, 20_000, 100_000, 0));
            pairs.add(new KernelEfficiencyBenchmark.Pair(label, hundredT, "rwm", 0.5, true, 20_000, 100_000, 0));
            pairs.add(new KernelEfficiencyBenchmark.Pair(label, hundredT, "slice", 1, true, 1000, 5_000, 0));
        }
        KernelEfficiencyBenchmark.table(pairs);
    }
}
