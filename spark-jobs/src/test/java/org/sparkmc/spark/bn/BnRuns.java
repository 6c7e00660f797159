package org.sparkmc.spark.bn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sparkmc.core.bayesnet.BayesNet;
import org.sparkmc.core.bayesnet.BifReader;
import org.sparkmc.spark.TestPaths;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;

/** Helpers for the bn tests: the shipped ALARM network, running the job, and reading summary.json. */
final class BnRuns {
    private BnRuns() {
    }

    static String alarmPath() {
        return TestPaths.projectRoot().resolve("data/alarm/alarm.bif").toString();
    }

    static BayesNet alarm() {
        try (Reader r = Files.newBufferedReader(Path.of(alarmPath()), StandardCharsets.UTF_8)) {
            return BifReader.read(r, alarmPath());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code sparkmc bn --network ALARM --out out <args>} and returns its summary.json. */
    static JsonNode run(Path out, String... args) {
        List<String> all = new ArrayList<>(List.of("bn", "--network", alarmPath(), "--out", out.toString()));
        all.addAll(Arrays.asList(args));
        assertEquals(ExitCode.OK, Main.run(all.toArray(new String[0])), "bn " + all);
        try {
            return new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The state objects of one query variable in summary.json. */
    static JsonNode states(JsonNode summary, String variable) {
        for (JsonNode q : summary.get("queries")) {
            if (q.get("variable").asText().equals(variable)) {
                return q.get("states");
            }
        }
        throw new AssertionError("no query " + variable + " in " + summary);
    }
}
