package org.sparkmc.spark.smc;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.smc.ObservationCsv;
import org.sparkmc.core.smc.Observations;
import org.sparkmc.spark.TestPaths;

/** The shipped Nile series and small models for the smc tests. */
final class SmcTestData {
    private SmcTestData() {
    }

    static Path nileFile() {
        return TestPaths.projectRoot().resolve("data/nile/nile.csv");
    }

    static Observations nile() {
        try (Reader r = Files.newBufferedReader(nileFile(), StandardCharsets.UTF_8)) {
            return ObservationCsv.read(r, nileFile().toString(),
                    ObservationCsv.Options.defaults().withTimeColumn("year"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The local linear trend on the Nile (conf/smc-nile-trend.conf): a 2-d linear-Gaussian model. */
    static ModelParameters trend() {
        return new ModelParameters("trend", Map.of(
                "F", java.util.List.of(java.util.List.of(1, 1), java.util.List.of(0, 1)),
                "Q", java.util.List.of(java.util.List.of(1469.1, 0), java.util.List.of(0, 10)),
                "H", java.util.List.of(java.util.List.of(1, 0)),
                "R", java.util.List.of(java.util.List.of(15099)),
                "m0", java.util.List.of(1120, 0),
                "P0", java.util.List.of(java.util.List.of(1e6, 0), java.util.List.of(0, 100))));
    }

    /** Reads a whole file. */
    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
