package org.sparkmc.spark.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.TestPaths;
import org.sparkmc.spark.cli.LauncherIT;

/**
 * Each job's report.html, from its shipped example, renders in headless Chromium (Debian's package, installed by
 * .ci/run): no console message and a screenshot that is not blank. Screenshots land in
 * spark-jobs/target/report-screenshots/. A machine without Chromium fails this test, naming the command that
 * installs it (submit/test installs it when missing).
 */
class ReportRenderIT {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir
    Path tmp;

    @Test
    void chainsReportRenders() throws Exception {
        Path out = tmp.resolve("eight");
        LauncherIT.Run run = LauncherIT.launch("chains", "--conf", "conf/chains-eight-schools.conf", "--out",
                out.toString());
        assertEquals(0, run.code(), run.output());
        render(out.resolve("report.html"), "chains-eight-schools.png");
    }

    /**
     * The reversible-jump report (galaxy mixture, shortened run): its model-choice section — p(k | y) bars with MCSE
     * error bars and the predictive density with its band over the data histogram — renders without console errors.
     */
    @Test
    void rjmcmcReportRenders() throws Exception {
        Path out = tmp.resolve("galaxy");
        LauncherIT.Run run = LauncherIT.launch("chains", "--conf", "conf/rjmcmc-galaxy.conf", "--chains", "4",
                "--warmup", "1000", "--round-size", "2000", "--max-rounds", "1", "--out", out.toString());
        assertEquals(0, run.code(), run.output());
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("Reversible jump: model choice") && html.contains("p(k | y), error bars"), html);
        assertTrue(Files.exists(out.resolve("model_probs.csv")) && Files.exists(out.resolve("predictive.csv")));
        render(out.resolve("report.html"), "chains-rjmcmc-galaxy.png");
    }

    @Test
    void diagnoseReportRenders() throws Exception {
        Path out = tmp.resolve("bern");
        LauncherIT.Run run = LauncherIT.launch("diagnose",
                TestPaths.sharedData().resolve("diagnostics/stan_bern").toString(), "--out", out.toString());
        assertEquals(0, run.code(), run.output());
        render(out.resolve("report.html"), "diagnose-stan-bern.png");
    }

    @Test
    void smcReportRenders() throws Exception {
        Path out = tmp.resolve("nile");
        LauncherIT.Run run = LauncherIT.launch("smc", "--conf", "conf/smc-nile.conf", "--out", out.toString());
        assertEquals(0, run.code(), run.output());
        assertTrue(run.output().contains("step 100/100 t 1970"), run.output());
        assertTrue(Files.exists(out.resolve("filter.parquet")) && Files.exists(out.resolve("_SUCCESS")));
        render(out.resolve("report.html"), "smc-nile.png");
    }

    @Test
    void bnReportRenders() throws Exception {
        Path out = tmp.resolve("bn-alarm");
        LauncherIT.Run run = LauncherIT.launch("bn", "--conf", "conf/bn-alarm.conf", "--samples", "1000000",
                "--out", out.toString());
        assertEquals(0, run.code(), run.output());
        assertTrue(run.output().contains("P(LVFAILURE | evidence)"), run.output());
        render(out.resolve("report.html"), "bn-alarm.png");
    }

    @Test
    void ldaReportRenders() throws Exception {
        Path out = tmp.resolve("lda-kos");
        LauncherIT.Run run = LauncherIT.launch("lda", "--conf", "conf/lda-kos.conf", "--topics", "20", "--sweeps",
                "30", "--eval-burn-in", "10", "--eval-samples", "10", "--out", out.toString());
        assertEquals(0, run.code(), run.output());
        assertTrue(run.output().contains("lda: sweep 30"), run.output());
        assertTrue(Files.exists(out.resolve("topics.csv")) && Files.exists(out.resolve("_SUCCESS")));
        render(out.resolve("report.html"), "lda-kos.png");
    }

    static void render(Path html, String screenshotName) throws Exception {
        assertTrue(Files.isExecutable(CHROMIUM), "the report render test needs Debian's chromium: run the tests "
                + "with submit/test (it installs what is missing), or apt-get install chromium");
        Path dir = Files.createDirectories(TestPaths.projectRoot().resolve("spark-jobs/target/report-screenshots"));
        Path png = dir.resolve(screenshotName);
        Files.deleteIfExists(png);
        Path profile = Files.createTempDirectory("chromium-profile");
        Process p = new ProcessBuilder(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
                "--window-size=1300,2200", "--screenshot=" + png, html.toUri().toString()))
                .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), log);
        for (String line : log.split("\n")) {
            assertFalse(line.contains("CONSOLE"), "console message while rendering " + html + ": " + line);
        }
        BufferedImage image = ImageIO.read(png.toFile());
        Set<Integer> colours = new HashSet<>();
        long coloured = 0;
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                int rgb = image.getRGB(x, y) & 0xffffff;
                colours.add(rgb);
                if (rgb != 0xffffff) {
                    coloured++;
                }
            }
        }
        double share = coloured / (image.getWidth() / 2.0 * image.getHeight() / 2.0);
        assertTrue(colours.size() > 50 && share > 0.02, "blank screenshot? " + colours.size() + " colours, "
                + share + " non-white");
    }
}
