package org.sparkmc.spark.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sparkmc.spark.cli.LauncherIT.launch;
import static org.sparkmc.spark.cli.LauncherIT.summary;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.numbers.gamma.LogGamma;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.TestPaths;
import org.sparkmc.spark.cli.LauncherIT.Run;

/**
 * A user's own target, the way the README tells a new user to write one: compiled against the packaged app jar,
 * put in a jar of its own, named as {@code class:…} in a config and shipped with {@code --classpath} through the real
 * launcher. Both checks compare the posterior with its closed form within 4 Monte Carlo standard errors (fixed
 * seeds; a correct sampler fails such a check with probability about 6e-5 per quantity).
 */
public class UserTargetIT {

    @TempDir
    Path tmp;

    /** The README's NormalMean, taken from the README's own text, against the conjugate normal answer. */
    @Test
    void readmeUserTargetCompilesAndRuns() throws Exception {
        String readme = Files.readString(TestPaths.projectRoot().resolve("README.md"));
        int marker = readme.indexOf("<!-- user-target-example -->");
        int start = readme.indexOf("```java\n", marker) + "```java\n".length();
        Path userJar = compiledJar("NormalMean", readme.substring(start, readme.indexOf("```", start)));

        Path out = tmp.resolve("normal-mean");
        Run run = launch("chains", "--classpath", userJar.toString(), "--conf", "conf/chains-user-target.conf",
                "--out", out.toString());
        assertEquals(0, run.code(), run.output());
        JsonNode summary = summary(out);
        assertTrue(summary.get("converged").asBoolean(), summary.toString());
        JsonNode mu = summary.get("parameters").get(0);
        assertEquals("mu", mu.get("name").asText());

        double[] y = {28, 26, 33, 24, 34, 27, 16, 40, 29, 22, 24, 21, 25, 30, 23, 29, 31, 19, 24, 20, 36, 32, 36, 28,
            25, 21, 28, 29, 37, 25, 28, 26, 30, 32, 36, 26, 30, 22, 36, 23, 27, 27, 28, 27, 31, 27, 26, 33, 26, 32, 32,
            24, 39, 28, 24, 25, 32, 25, 29, 27, 28, 29, 16, 23};
        double precision = 1 / (100.0 * 100) + y.length / 25.0;
        double sum = 0;
        for (double v : y) {
            sum += v;
        }
        assertWithin(mu, (sum / 25.0) / precision);
        assertEquals(Math.sqrt(1 / precision), mu.get("sd").asDouble(), 0.1 * Math.sqrt(1 / precision));
    }

    /**
     * The shipped constrained example ({@code examples/GroupScales.java}: variances sampled as log variances with
     * their Jacobian, data as a matrix, its own starting points) against its InverseGamma(a + n/2, b + SS/2)
     * posterior: the mean and sd of each sigma2[k], and the mean of the derived sigma[k],
     * E[sigma] = sqrt(B) Γ(A − 1/2) / Γ(A).
     */
    @Test
    void shippedConstrainedExampleMatchesItsClosedForm() throws Exception {
        Path source = TestPaths.projectRoot().resolve("examples/GroupScales.java");
        Path userJar = compiledJar("GroupScales", Files.readString(source));
        Path out = tmp.resolve("group-scales");
        Run run = launch("chains", "--classpath", userJar.toString(), "--conf", "conf/chains-group-scales.conf",
                "--out", out.toString());
        assertEquals(0, run.code(), run.output());
        JsonNode summary = summary(out);
        assertTrue(summary.get("converged").asBoolean(), summary.toString());

        double[][] y = {{0.8, -1.2, 0.3, 1.9, -0.6, -0.4, 1.1, -2.0, 0.5, 0.2, -0.9, 1.4},
            {2.9, -3.8, 1.7, -0.6, 4.2, -2.5, 0.9, -4.9, 3.1, -1.3, 2.2, -0.4}};
        for (int k = 0; k < y.length; k++) {
            double shape = 2 + y[k].length / 2.0;
            double scale = 1;
            for (double v : y[k]) {
                scale += v * v / 2;
            }
            JsonNode sigma2 = parameter(summary, "sigma2[" + (k + 1) + "]");
            double mean = scale / (shape - 1);
            assertWithin(sigma2, mean);
            double sd = mean / Math.sqrt(shape - 2);
            assertEquals(sd, sigma2.get("sd").asDouble(), 0.1 * sd, "sd of sigma2[" + (k + 1) + "]");
            assertWithin(parameter(summary, "sigma[" + (k + 1) + "]"),
                    Math.sqrt(scale) * Math.exp(LogGamma.value(shape - 0.5) - LogGamma.value(shape)));
        }
        assertTrue(summary.get("efficiency").get("ess_bulk_per_second").get("sigma2[1]").asDouble() > 0);
    }

    private static void assertWithin(JsonNode p, double exact) {
        double mcse = p.get("mcse_mean").asDouble();
        assertTrue(Math.abs(p.get("mean").asDouble() - exact) < 4 * mcse,
                p.get("name") + ": posterior mean " + p.get("mean") + " vs exact " + exact + " (MCSE " + mcse + ")");
    }

    private static JsonNode parameter(JsonNode summary, String name) {
        for (JsonNode p : summary.get("parameters")) {
            if (p.get("name").asText().equals(name)) {
                return p;
            }
        }
        throw new AssertionError("no parameter " + name + " in " + summary.get("parameters").findValuesAsText("name"));
    }

    /** {@code com.example.<name>} from {@code source}, compiled against the app jar and put in a jar of its own. */
    private Path compiledJar(String name, String source) throws IOException, InterruptedException {
        Path src = Files.createDirectories(tmp.resolve(name + "/src/com/example")).resolve(name + ".java");
        Files.writeString(src, source);
        Path classes = Files.createDirectories(tmp.resolve(name + "/classes"));
        int javac = javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, null,
                "-d", classes.toString(), "-cp", appJar().toString(), src.toString());
        assertEquals(0, javac, name + " must compile against the app jar");
        Path userJar = tmp.resolve(name + ".jar");
        Process jar = new ProcessBuilder("jar", "cf", userJar.toString(), "-C", classes.toString(), ".")
                .inheritIO().start();
        assertEquals(0, jar.waitFor());
        return userJar;
    }

    private static Path appJar() throws IOException {
        try (var files = Files.list(TestPaths.projectRoot().resolve("spark-jobs/target"))) {
            return files.filter(p -> p.getFileName().toString().matches("sparkmc-spark-jobs-.*\\.jar"))
                    .filter(p -> !p.getFileName().toString().contains("original"))
                    .findFirst().orElseThrow(() -> new AssertionError("app jar not packaged"));
        }
    }
}
