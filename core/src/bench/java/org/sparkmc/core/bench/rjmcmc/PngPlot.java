package org.sparkmc.core.bench.rjmcmc;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.sparkmc.core.rjmcmc.PredictiveDensity;

/** Renders a {@link PredictiveDensity} with a data histogram as a PNG (headless AWT + ImageIO). */
final class PngPlot {
    private PngPlot() {
    }

    static void write(PredictiveDensity pd, double[] data, String title, Path file) throws IOException {
        System.setProperty("java.awt.headless", "true");
        int w = 800;
        int h = 480;
        int left = 60;
        int right = 20;
        int top = 40;
        int bottom = 50;
        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, w, h);
        double[] x = pd.grid();
        double x0 = x[0];
        double x1 = x[x.length - 1];
        int bins = 40;
        double bw = (x1 - x0) / bins;
        double[] hist = new double[bins];
        for (double v : data) {
            int b = (int) Math.floor((v - x0) / bw);
            if (b >= 0 && b < bins) {
                hist[b] += 1.0 / (data.length * bw);
            }
        }
        double ymax = 0;
        for (double v : pd.upper()) {
            ymax = Math.max(ymax, v);
        }
        for (double v : hist) {
            ymax = Math.max(ymax, v);
        }
        ymax *= 1.05;
        double pw = w - left - right;
        double ph = h - top - bottom;
        double ym = ymax;
        java.util.function.DoubleUnaryOperator sx = v -> left + (v - x0) / (x1 - x0) * pw;
        java.util.function.DoubleUnaryOperator sy = v -> top + ph - v / ym * ph;
        g.setColor(new Color(0xdd, 0xdd, 0xdd));
        for (int b = 0; b < bins; b++) {
            int px = (int) sx.applyAsDouble(x0 + b * bw);
            int py = (int) sy.applyAsDouble(hist[b]);
            g.fillRect(px, py, (int) Math.ceil(pw / bins), (int) (top + ph) - py);
        }
        Path2D band = new Path2D.Double();
        band.moveTo(sx.applyAsDouble(x[0]), sy.applyAsDouble(pd.upper()[0]));
        for (int i = 1; i < x.length; i++) {
            band.lineTo(sx.applyAsDouble(x[i]), sy.applyAsDouble(pd.upper()[i]));
        }
        for (int i = x.length - 1; i >= 0; i--) {
            band.lineTo(sx.applyAsDouble(x[i]), sy.applyAsDouble(pd.lower()[i]));
        }
        band.closePath();
        g.setColor(new Color(0x44, 0x77, 0xaa, 90));
        g.fill(band);
        Path2D line = new Path2D.Double();
        line.moveTo(sx.applyAsDouble(x[0]), sy.applyAsDouble(pd.mean()[0]));
        for (int i = 1; i < x.length; i++) {
            line.lineTo(sx.applyAsDouble(x[i]), sy.applyAsDouble(pd.mean()[i]));
        }
        g.setColor(new Color(0x22, 0x44, 0x77));
        g.setStroke(new BasicStroke(2f));
        g.draw(line);
        g.setColor(Color.BLACK);
        g.setStroke(new BasicStroke(1f));
        g.drawLine(left, top + (int) ph, left + (int) pw, top + (int) ph);
        g.drawLine(left, top, left, top + (int) ph);
        for (int t = (int) Math.ceil(x0 / 5) * 5; t <= x1; t += 5) {
            int px = (int) sx.applyAsDouble(t);
            g.drawLine(px, top + (int) ph, px, top + (int) ph + 5);
            g.drawString(Integer.toString(t), px - 6, top + (int) ph + 20);
        }
        for (double v = 0; v <= ymax; v += 0.05) {
            int py = (int) sy.applyAsDouble(v);
            g.drawLine(left - 5, py, left, py);
            g.drawString(String.format(java.util.Locale.ROOT, "%.2f", v), left - 40, py + 4);
        }
        g.drawString(title, left, 20);
        g.drawString("velocity (1000 km/s); line: predictive density, band: 5-95% pointwise of f(t)", left,
                h - 12);
        g.dispose();
        ImageIO.write(img, "png", file.toFile());
    }
}
