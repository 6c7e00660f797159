package org.sparkmc.spark.fuzz;

import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.fuzz.Mutations;
import org.sparkmc.spark.cli.ConfigFile;
import org.sparkmc.spark.io.DrawFiles;
import org.sparkmc.spark.io.ModelDataReader;

/**
 * Property-based bad-input tests (jqwik, fixed seed) of the spark-jobs parsers — CmdStan and plain CSV draws, HOCON
 * config files, JSON model data: any text gives a result or one clear InvalidInputException, never another
 * exception or a hang. (The parse errors DrawFiles returns as values count as clear errors.)
 */
class JobInputFuzzTest {
    static final String CMDSTAN = "# model = m\n# id = 1\nlp__,accept_stat__,theta,mu.1,mu.2\n-7.1,0.9,0.2,1,2\n"
            + "-6.9,1,0.25,1.1,2.2\n# Elapsed Time: 0.1\n";
    static final String CSV = "chain,draw,a,b\n1,1,0.5,0.1\n1,2,0.4,0.2\n2,1,0.3,0.3\n2,2,0.2,0.4\n";
    static final String CONF = "model = bimodal\nmodel-params { threshold = 5 }\nchains = 8\nscale = 10\n"
            + "adapt = false\nwarmup = 1000\nout = \"/tmp/x\"\n";
    static final String JSON = "{\n  \"J\": 8,\n  \"y\": [28, 8, -3, 7, -1, 1, 18, 12],\n  \"sigma\": [15, 10, 16, 11, 9, 11]\n}\n";

    static {
        // Load the parsers' classes (typesafe config, picocli, Hadoop) before the per-input time guard applies, so a
        // slow first class load is not mistaken for a hang.
        ConfigFile.none().block("model-params");
        new org.apache.hadoop.conf.Configuration();
        DrawFiles.detect("warm-up", "chain,draw,a");
    }

    @Provide
    Arbitrary<String> drawFiles() {
        return Arbitraries.oneOf(Mutations.mutated(CMDSTAN), Mutations.mutated(CSV), Mutations.randomText());
    }

    @Property(tries = 600, seed = "20261122")
    void drawFilesParseOrNameTheirError(@ForAll("drawFiles") String text) {
        Mutations.resultOrClearError("draws", () -> {
            String first = text.lines().findFirst().orElse(null);
            DrawFiles.Format format = DrawFiles.detect("f.csv", first);
            List<String> names = DrawFiles.parameterNames("f.csv", new BufferedReader(new StringReader(text)), format);
            DrawFiles.Parsed parsed = DrawFiles.parse("f.csv", new BufferedReader(new StringReader(text)), format,
                    names, 1);
            if (parsed.error() != null && !parsed.error().startsWith("f.csv")) {
                throw new AssertionError("error does not name the file: " + parsed.error());
            }
        });
    }

    @Provide
    Arbitrary<String> configs() {
        return Arbitraries.oneOf(Mutations.mutated(CONF), Mutations.randomText());
    }

    @Property(tries = 400, seed = "20261122")
    void configFilesLoadOrNameTheirError(@ForAll("configs") String text) throws Exception {
        Path file = Files.createTempFile("fuzz", ".conf");
        try {
            Files.writeString(file, text);
            Mutations.resultOrClearError("config", () -> {
                ConfigFile conf = ConfigFile.load(file.toString());
                conf.block("model-params");
            });
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Provide
    Arbitrary<String> jsons() {
        return Arbitraries.oneOf(Mutations.mutated(JSON), Mutations.randomText());
    }

    @Property(tries = 400, seed = "20261122")
    void modelDataReadsOrNamesItsError(@ForAll("jsons") String text) throws Exception {
        Path file = Files.createTempFile("fuzz", ".json");
        try {
            Files.writeString(file, text);
            Mutations.resultOrClearError("json", () -> {
                try {
                    new org.sparkmc.core.model.EightSchoolsNoncentered(new org.sparkmc.core.model.ModelParameters(
                            file.toString(), ModelDataReader.read(file.toString(),
                            new org.apache.hadoop.conf.Configuration())));
                } catch (InvalidInputException e) {
                    throw e;
                }
            });
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
