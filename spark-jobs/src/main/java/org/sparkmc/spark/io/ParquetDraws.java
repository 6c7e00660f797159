package org.sparkmc.spark.io;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import scala.Tuple2;

/**
 * Draws in the layout the jobs write ({@code chain}, {@code draw}, then one double column per quantity) regrouped
 * per chain: each chain's draws as [quantity][iteration] in draw order. Shuffles primitive arrays, not rows.
 */
public final class ParquetDraws {
    private ParquetDraws() {
    }

    /**
     * @param draws columns chain (int), draw (int), then {@code width} doubles (null read as NaN)
     */
    public static JavaPairRDD<Integer, double[][]> byChain(Dataset<Row> draws, int width) {
        return draws.javaRDD()
                .mapToPair(r -> {
                    double[] drawAndValues = new double[width + 1];
                    drawAndValues[0] = r.getInt(1);
                    for (int p = 0; p < width; p++) {
                        drawAndValues[p + 1] = r.isNullAt(p + 2) ? Double.NaN : r.getDouble(p + 2);
                    }
                    return new Tuple2<>(r.getInt(0), drawAndValues);
                })
                .groupByKey()
                .mapValues(rows -> {
                    List<double[]> sorted = new ArrayList<>();
                    rows.forEach(sorted::add);
                    sorted.sort(Comparator.comparingDouble(r -> r[0]));
                    double[][] byQuantity = new double[width][sorted.size()];
                    for (int i = 0; i < sorted.size(); i++) {
                        for (int p = 0; p < width; p++) {
                            byQuantity[p][i] = sorted.get(i)[p + 1];
                        }
                    }
                    return byQuantity;
                });
    }
}
