package org.sparkmc.core.smc;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The Nile series from the shared data folder (system property {@code sparkmc.shared.data}). */
final class NileData {
    private NileData() {
    }

    static Path sharedData() {
        return Path.of(System.getProperty("sparkmc.shared.data", "../../shared/data"));
    }

    static Observations load() {
        Path file = sharedData().resolve("nile/nile.csv");
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return ObservationCsv.read(r, file.toString(), ObservationCsv.Options.defaults().withTimeColumn("year"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
