// Bayesian logistic regression on the Pima data as sparkmc's logistic_regression model has it: an intercept and
// the predictors standardised (mean 0, sample sd 1) beforehand, every coefficient N(0, 10^2).
data {
  int<lower=1> N;
  int<lower=1> P;
  matrix[N, P] X;
  int<lower=0, upper=1> y[N];
}
parameters {
  vector[P + 1] w;
}
model {
  w ~ normal(0, 10);
  y ~ bernoulli_logit(w[1] + X * w[2:(P + 1)]);
}
