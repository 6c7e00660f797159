package org.sparkmc.core.model;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.imageio.ImageIO;

/** Encodes a row-major array of values as an 8-bit grey PNG (javax.imageio), mapping [lo, hi] to black…white. */
public final class GrayscalePng {
    private GrayscalePng() {
    }

    public static byte[] encode(double[] values, int height, int width, double lo, double hi) {
        if (values.length != height * width) {
            throw new IllegalArgumentException("image has " + values.length + " values, expected " + height * width);
        }
        if (!(hi > lo)) {
            throw new IllegalArgumentException("need lo < hi, got " + lo + ", " + hi);
        }
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_BYTE_GRAY);
        var raster = image.getRaster();
        for (int r = 0; r < height; r++) {
            for (int c = 0; c < width; c++) {
                double v = (values[r * width + c] - lo) / (hi - lo);
                int g = (int) Math.round(255 * Math.max(0, Math.min(1, Double.isNaN(v) ? 0 : v)));
                raster.setSample(c, r, 0, g);
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            if (!ImageIO.write(image, "png", out)) {
                throw new IllegalStateException("no PNG writer in this JVM");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
