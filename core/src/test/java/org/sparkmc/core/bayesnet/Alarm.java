package org.sparkmc.core.bayesnet;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The ALARM network from the shared data (system property sparkmc.shared.data, set by Surefire). */
final class Alarm {
    private static BayesNet net;

    private Alarm() {
    }

    static Path path() {
        String dir = System.getProperty("sparkmc.shared.data", "../../shared/data");
        return Path.of(dir, "alarm", "alarm.bif");
    }

    static synchronized BayesNet network() {
        if (net == null) {
            try (Reader r = Files.newBufferedReader(path(), StandardCharsets.UTF_8)) {
                net = BifReader.read(r, path().toString());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return net;
    }
}
