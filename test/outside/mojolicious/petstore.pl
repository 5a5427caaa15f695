#!/usr/bin/env perl
# A Petstore server in Perl with Mojolicious::Lite, written from the interface document (petstore-interface.md) the
# way Mojolicious's guides teach: routes under an `under` that checks the key, the id placeholder restricted with the
# built-in `num` type, the body from $c->req->json, Mojolicious::Validator for the query and for the body's fields,
# render(json => ...) for every answer. Mojolicious's defaults (its router's 404 page, Mojo::JSON) are left as they
# are; nothing here was tuned to the conformance suite.
#
# Debian: libmojolicious-perl. test/outside/stack-apps.ts runs it as the guides deploy it,
# `perl petstore.pl daemon -m production -l http://127.0.0.1:0`, with API_KEY in the environment.
use Mojolicious::Lite -signatures;

my $api_key  = $ENV{API_KEY};
my @statuses = qw(available pending sold);
my %pets;
my $next_id = 1;

helper error => sub ($c, $status, $code, $message) {
  $c->render(status => $status, json => {code => $code, message => $message, status => $status});
};

under '/v1' => sub ($c) {
  return 1 if ($c->req->headers->authorization // '') eq "Bearer $api_key";
  $c->error(401, 'unauthorized', 'API key missing or invalid');
  return undef;
};

get '/pets' => sub ($c) {
  my $v = $c->validation;
  $v->optional('limit')->num(1, 100);
  $v->optional('status')->in(@statuses);
  return $c->error(400, 'invalid_query', 'Invalid ' . join(', ', @{$v->failed})) if $v->has_error;

  my $limit  = $v->param('limit') // 20;
  my $status = $v->param('status');
  my @found  = grep { !defined $status || ($_->{status} // '') eq $status } map { $pets{$_} } sort { $a <=> $b } keys %pets;
  splice @found, $limit if @found > $limit;
  $c->render(json => \@found);
};

post '/pets' => sub ($c) {
  my $body = $c->req->json;
  return $c->error(400, 'invalid_body', 'The body must be a JSON object') unless ref $body eq 'HASH';

  my $v = $c->validation->input($body);
  $v->required('name');
  $v->required('categoryId')->num;
  $v->optional('status')->in(@statuses);
  return $c->error(400, 'invalid_body', 'Invalid ' . join(', ', @{$v->failed})) if $v->has_error;

  my $pet = {%{$v->output}, id => $next_id++};
  $pets{$pet->{id}} = $pet;
  $c->render(status => 201, json => $pet);
};

get '/pets/<petId:num>' => sub ($c) {
  my $pet = $pets{$c->param('petId')};
  return $c->error(404, 'not_found', 'Pet not found') unless $pet;
  $c->render(json => $pet);
};

app->start;
